//! SEP-2640 `resources/directory/read`: the direct children of a folder in
//! the `skill://` namespace.

use std::collections::BTreeMap;

use rmcp::model::{ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult, Resource};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use super::cursor::{self, Kind, Listing};
use super::view::View;
use super::{SkillsServer, wire};

impl SkillsServer {
    /// SEP-2640 `resources/directory/read`: the direct children of a
    /// directory in the `skill://` namespace (a skill folder, a folder inside
    /// one, or an organisational prefix such as `skill://acme`). Folders have
    /// `mimeType: inode/directory`; anything else is `-32602` with the URI in
    /// `data`. Paginated like the listings: a cursor not issued for this
    /// directory of the current set, or one past its end, is `-32602` with
    /// the cursor in `data`.
    pub(crate) fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        let view = self.request_view(context);
        let uri = request.uri.as_str();
        let canonical = skills_core::uri::parse(uri).map_err(|_| wire::not_a_directory(uri))?;
        let folder =
            skills_core::uri::decoded_path(&canonical).ok_or_else(|| wire::not_a_directory(uri))?;
        let children = view.children(&canonical, &folder);
        if children.is_empty() {
            return Err(wire::not_a_directory(uri));
        }
        let page = cursor::page(
            &children,
            view.settings().resources_page_size,
            request.cursor.as_deref(),
            Listing::new(Kind::Directory, view.fingerprint()).within(&canonical),
        )?;
        let mut result = ReadResourceDirectoryResult::with_all_items(page.items.to_vec());
        result.next_cursor = page.next;
        view.cache_hints(&mut result.ttl_ms, &mut result.cache_scope);
        Ok(result)
    }
}

impl View<'_> {
    /// The children of `folder` (a path relative to the skills root, whose
    /// canonical URI is `canonical`) that the caller may read, by name: each
    /// file directly in it, and each folder holding deeper files.
    fn children(&self, canonical: &str, folder: &str) -> Vec<Resource> {
        // A file, or a folder (`None`) holding deeper files.
        let mut by_name: BTreeMap<String, Option<Resource>> = BTreeMap::new();
        for (skill, file) in self.skills().files_under(folder) {
            let full = format!("{}/{}", skill.path(), file.path());
            let Some(rest) = full
                .strip_prefix(folder)
                .and_then(|rest| rest.strip_prefix('/'))
            else {
                continue;
            };
            if !self.may_read(skill) {
                continue;
            }
            match rest.split_once('/') {
                None => {
                    let resource = wire::directory_file(skill, file, rest);
                    by_name.insert(rest.to_owned(), Some(resource));
                }
                Some((dir, _)) => {
                    by_name.entry(dir.to_owned()).or_insert(None);
                }
            }
        }
        by_name
            .into_iter()
            .map(|(name, file)| {
                file.unwrap_or_else(|| {
                    let uri = format!("{canonical}/{}", skills_core::uri::encode(&name));
                    wire::directory_folder(uri, name)
                })
            })
            .collect()
    }
}
