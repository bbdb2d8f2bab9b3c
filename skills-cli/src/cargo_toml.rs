//! Reading and editing a crate's `Cargo.toml` without disturbing what the
//! author wrote (comments, order, formatting): toml_edit, as Cargo itself
//! edits manifests.

use std::path::{Path, PathBuf};

use toml_edit::{DocumentMut, InlineTable, Item, Table, Value};

use crate::write;

/// A manifest being edited.
#[derive(Debug)]
pub(crate) struct CargoToml {
    path: PathBuf,
    original: write::Read,
    document: DocumentMut,
}

impl CargoToml {
    /// Reads and parses `path`; the error is a sentence naming the file.
    pub(crate) fn read(path: &Path) -> Result<Self, String> {
        let original = write::read(path)
            .map_err(|error| format!("{}: cannot read it: {error}", path.display()))?;
        let document = original
            .text
            .parse::<DocumentMut>()
            .map_err(|error| format!("{}: not valid TOML: {error}", path.display()))?;
        Ok(Self {
            path: path.to_path_buf(),
            original,
            document,
        })
    }

    /// Where it is.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Whether it declares a package (a workspace root alone does not).
    pub(crate) fn is_package(&self) -> bool {
        self.document
            .get("package")
            .is_some_and(Item::is_table_like)
    }

    /// `package.name`, when it is written as a string.
    pub(crate) fn package_name(&self) -> Option<&str> {
        self.document.get("package")?.get("name")?.as_str()
    }

    /// `package.build`: `None` when unset, else its value (`false`, or a path).
    pub(crate) fn build_key(&self) -> Option<&Value> {
        self.document.get("package")?.get("build")?.as_value()
    }

    /// Whether `table` (`dependencies`, `dev-dependencies`) names `krate`,
    /// directly or renamed (`x = { package = "krate", … }`).
    pub(crate) fn has_dependency(&self, table: &str, krate: &str) -> bool {
        let Some(deps) = self.document.get(table).and_then(Item::as_table_like) else {
            return false;
        };
        deps.iter().any(|(key, item)| {
            key == krate
                || item
                    .get("package")
                    .and_then(Item::as_str)
                    .is_some_and(|package| package == krate)
        })
    }

    /// Adds `krate = "version"` to `table`.
    pub(crate) fn add_dependency(&mut self, table: &str, krate: &str, version: &str) {
        self.dependencies(table)
            .insert(krate, toml_edit::value(version));
    }

    /// Adds `krate = { version = "…", features = […] }` to `table`.
    pub(crate) fn add_dependency_with_features(
        &mut self,
        table: &str,
        krate: &str,
        version: &str,
        features: &[&str],
    ) {
        let mut inline = InlineTable::new();
        inline.insert("version", Value::from(version));
        inline.insert("features", Value::Array(features.iter().copied().collect()));
        self.dependencies(table)
            .insert(krate, Item::Value(Value::InlineTable(inline)));
    }

    /// Adds `krate = { path = "…", … }` to `table`, with the other keys given.
    pub(crate) fn add_path_dependency(
        &mut self,
        table: &str,
        krate: &str,
        path: &str,
        extra: &[(&str, Value)],
    ) {
        let mut inline = InlineTable::new();
        inline.insert("path", Value::from(path));
        for (key, value) in extra {
            inline.insert(*key, value.clone());
        }
        self.dependencies(table)
            .insert(krate, Item::Value(Value::InlineTable(inline)));
    }

    fn dependencies(&mut self, table: &str) -> &mut Table {
        let item = self
            .document
            .entry(table)
            .or_insert_with(|| Item::Table(Table::new()));
        if !item.is_table() {
            // An inline `dependencies = { … }`: make it a table of its own.
            let inline = std::mem::take(item);
            *item = match inline.into_table() {
                Ok(table) => Item::Table(table),
                Err(_) => Item::Table(Table::new()),
            };
        }
        item.as_table_mut().expect("made a table above")
    }

    /// `profile.dev.build-override.opt-level`, when set.
    pub(crate) fn build_override_opt_level(&self) -> Option<&Item> {
        self.document
            .get("profile")?
            .get("dev")?
            .get("build-override")?
            .get("opt-level")
    }

    /// Sets `[profile.dev.build-override] opt-level = 3`, with a comment
    /// saying why.
    pub(crate) fn add_build_override(&mut self) {
        let profile = implicit_table(self.document.as_table_mut(), "profile");
        let dev = implicit_table(profile, "dev");
        let item = dev
            .entry("build-override")
            .or_insert_with(|| Item::Table(Table::new()));
        if let Some(table) = item.as_table_mut() {
            if table.is_empty() {
                table.decor_mut().set_prefix(
                    "\n# embed_skills! reads and hashes every skill file while the crate\n# compiles; dev builds would run it unoptimised.\n",
                );
            }
            table.insert("opt-level", toml_edit::value(3));
        }
    }

    /// Writes the manifest back when an edit changed it.
    pub(crate) fn save(&self) -> std::io::Result<()> {
        let text = self.document.to_string();
        if text != self.original.text {
            write::replace(&self.path, &self.original, &text)?;
        }
        Ok(())
    }
}

/// The table `key` of `parent`, created without a header of its own (so
/// only `[profile.dev.build-override]` shows).
fn implicit_table<'t>(parent: &'t mut Table, key: &str) -> &'t mut Table {
    let item = parent.entry(key).or_insert_with(|| {
        let mut table = Table::new();
        table.set_implicit(true);
        Item::Table(table)
    });
    if !item.is_table() {
        *item = Item::Table(Table::new());
    }
    item.as_table_mut().expect("made a table above")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The manifest `text`, read from a file as the command reads one.
    fn manifest(text: &str) -> CargoToml {
        static FILES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let unique = FILES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "skills-cli-cargo-toml-{}-{unique}.toml",
            std::process::id()
        ));
        std::fs::write(&path, text).unwrap();
        let manifest = CargoToml::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        manifest
    }

    fn edited(text: &str, edit: impl FnOnce(&mut CargoToml)) -> String {
        let mut manifest = manifest(text);
        edit(&mut manifest);
        manifest.document.to_string()
    }

    #[test]
    fn edits_keep_what_the_author_wrote() {
        let text = "[package]\nname = \"larder\" # ours\n\n[dependencies]\nserde = \"1\"\n";
        let out = edited(text, |m| {
            m.add_path_dependency("dependencies", "skills-runtime", "../sr", &[]);
            m.add_build_override();
        });
        assert_eq!(
            out,
            "[package]\nname = \"larder\" # ours\n\n[dependencies]\nserde = \"1\"\nskills-runtime = { path = \"../sr\" }\n\n# embed_skills! reads and hashes every skill file while the crate\n# compiles; dev builds would run it unoptimised.\n[profile.dev.build-override]\nopt-level = 3\n"
        );
        let out = edited("[package]\nname = \"x\"\n", |m| {
            m.add_dependency_with_features("dependencies", "tokio", "1", &["macros", "rt"]);
        });
        assert_eq!(
            out,
            "[package]\nname = \"x\"\n\n[dependencies]\ntokio = { version = \"1\", features = [\"macros\", \"rt\"] }\n"
        );
        let renamed = "[dependencies]\nskills = { package = \"skills-runtime\", path = \"x\" }\n";
        let manifest = manifest(renamed);
        assert!(manifest.has_dependency("dependencies", "skills-runtime"));
        assert!(!manifest.has_dependency("dev-dependencies", "trybuild"));
    }

    #[test]
    fn an_existing_profile_gains_the_override_only() {
        let text = "[package]\nname = \"x\"\n\n[profile.dev]\ndebug = 1\n";
        let out = edited(text, |m| m.add_build_override());
        assert!(out.starts_with(text), "{out}");
        assert!(
            out.ends_with("[profile.dev.build-override]\nopt-level = 3\n"),
            "{out}"
        );
    }
}
