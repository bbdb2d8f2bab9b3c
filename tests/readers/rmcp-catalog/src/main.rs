//! Prints, for each skills folder named on the command line, one JSON
//! object: the skills rmcp's `SkillCatalog` serves from it (URI,
//! frontmatter, resource URIs), or the error that stopped it. Observes
//! only: skills-cli/tests/readers.rs draws the verdicts.

use rmcp::handler::server::skill_catalog::SkillCatalog;
use rmcp::model::SkillResources;
use serde_json::{Value, json};

fn main() {
    for root in std::env::args().skip(1) {
        let line = match SkillCatalog::from_dir(&root) {
            Ok(catalog) => {
                let skills: Vec<Value> = catalog
                    .skills()
                    .into_iter()
                    .map(|skill| {
                        let resources: Vec<String> = match &skill.resources {
                            SkillResources::Files(files) => {
                                files.iter().map(|file| file.uri.clone()).collect()
                            }
                            _ => Vec::new(),
                        };
                        json!({
                            "uri": skill.uri,
                            "frontmatter": skill.frontmatter,
                            "resources": resources,
                        })
                    })
                    .collect();
                json!({ "root": root, "skills": skills })
            }
            Err(error) => json!({ "root": root, "error": error.to_string() }),
        };
        println!("{line}");
    }
}
