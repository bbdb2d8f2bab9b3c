//! What depends only on which skills a caller owns, built once per distinct
//! owned set and shared by every caller who owns the same skills: the
//! fingerprint cursors, caches and ETags key on, the instructions and the
//! fallback tool that name those skills. Keyed by the owned set, never by
//! caller, and bounded: a platform with a million learners has far fewer
//! distinct owned sets, and a miss only costs one rebuild.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use rmcp::model::Tool;

use crate::{Skill, Skills};

/// Which skills of a set a caller owns, one bit per skill in set order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Owned(Box<[u64]>);

impl Owned {
    /// Every skill of a set of `len` skills.
    pub(super) fn all(len: usize) -> Self {
        let mut owned = Self::none(len);
        for index in 0..len {
            owned.insert(index);
        }
        owned
    }

    /// No skill of a set of `len` skills.
    pub(super) fn none(len: usize) -> Self {
        Self(vec![0; len.div_ceil(64)].into_boxed_slice())
    }

    pub(super) fn insert(&mut self, index: usize) {
        self.0[index / 64] |= 1 << (index % 64);
    }

    pub(super) fn contains(&self, index: usize) -> bool {
        self.0
            .get(index / 64)
            .is_some_and(|word| word & (1 << (index % 64)) != 0)
    }

    fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(word_index, &word)| {
            (0..64)
                .filter(move |bit| word & (1 << bit) != 0)
                .map(move |bit| word_index * 64 + bit)
        })
    }
}

/// The skills one caller owns and what is derived from them alone.
pub(super) struct VisibleSet {
    owned: Owned,
    /// The owned skills' indices in set order: what `skills/list` pages.
    indices: Vec<usize>,
    /// The fingerprint a set of exactly these skills would have.
    fingerprint: String,
    /// The last instructions built, with the author's text they follow.
    instructions: Mutex<Option<(Option<String>, String)>>,
    /// The fallback tool's definition, which names these skills.
    pub(super) tool: OnceLock<Tool>,
}

impl VisibleSet {
    /// The view of `owned` in `skills`; `set_fingerprint` is used as is when
    /// every skill is owned.
    pub(super) fn new(skills: &Skills, owned: Owned) -> Self {
        let indices: Vec<usize> = owned.indices().collect();
        let fingerprint = if indices.len() == skills.len() {
            skills.fingerprint().to_owned()
        } else {
            let input = skills_core::fingerprint_input(indices.iter().map(|&index| {
                let skill = &skills.skills()[index];
                (skill.uri(), skill.version())
            }));
            rmcp::model::sha256_digest(input.as_bytes())
        };
        Self {
            owned,
            indices,
            fingerprint,
            instructions: Mutex::new(None),
            tool: OnceLock::new(),
        }
    }

    /// Whether the skill at `index` is owned.
    pub(super) fn owns(&self, index: usize) -> bool {
        self.owned.contains(index)
    }

    /// The owned skills' indices, in set order.
    pub(super) fn indices(&self) -> &[usize] {
        &self.indices
    }

    /// The owned skills, in set order.
    pub(super) fn skills<'s>(&'s self, skills: &'s Skills) -> impl Iterator<Item = &'s Skill> {
        self.indices.iter().map(|&index| &skills.skills()[index])
    }

    pub(super) fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// The instructions after `own`, built by `build` the first time they
    /// are asked for with this `own`.
    pub(super) fn instructions(&self, own: Option<&str>, build: impl FnOnce() -> String) -> String {
        let mut cached = self
            .instructions
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some((cached_own, text)) = cached.as_ref()
            && cached_own.as_deref() == own
        {
            return text.clone();
        }
        let text = build();
        *cached = Some((own.map(str::to_owned), text.clone()));
        text
    }
}

/// How many distinct owned sets a snapshot keeps views of.
pub(super) const VIEW_CACHE_CAPACITY: usize = 512;

/// Views by owned set, at most [`VIEW_CACHE_CAPACITY`]; the least recently
/// used goes first.
#[derive(Default)]
pub(super) struct ViewCache {
    inner: Mutex<CacheInner>,
}

#[derive(Default)]
struct CacheInner {
    views: HashMap<Owned, (Arc<VisibleSet>, u64)>,
    clock: u64,
}

impl ViewCache {
    /// The view of `owned`, built by `build` on a miss.
    pub(super) fn get_or_insert(
        &self,
        owned: Owned,
        build: impl FnOnce(Owned) -> VisibleSet,
    ) -> Arc<VisibleSet> {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.clock += 1;
        let now = inner.clock;
        if let Some((view, used)) = inner.views.get_mut(&owned) {
            *used = now;
            return view.clone();
        }
        if inner.views.len() >= VIEW_CACHE_CAPACITY
            && let Some(oldest) = inner
                .views
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(key, _)| key.clone())
        {
            inner.views.remove(&oldest);
        }
        let view = Arc::new(build(owned.clone()));
        inner.views.insert(owned, (view.clone(), now));
        view
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .views
            .len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owned_sets_round_trip_their_indices() {
        let mut owned = Owned::none(130);
        for index in [0, 63, 64, 129] {
            owned.insert(index);
        }
        assert_eq!(owned.indices().collect::<Vec<_>>(), [0, 63, 64, 129]);
        assert!(owned.contains(64) && !owned.contains(65) && !owned.contains(1000));
        assert_eq!(Owned::all(3).indices().count(), 3);
    }

    #[test]
    fn the_cache_is_bounded_and_keeps_what_was_used_last() {
        let cache = ViewCache::default();
        let skills = Skills::empty();
        let key = |n: usize| {
            let mut owned = Owned::none(VIEW_CACHE_CAPACITY + 8);
            owned.insert(n);
            owned
        };
        let build = |_| VisibleSet::new(&skills, Owned::none(0));
        let first = cache.get_or_insert(key(0), build);
        for n in 1..VIEW_CACHE_CAPACITY + 8 {
            // Touch the first view between insertions: it is never the oldest.
            let again = cache.get_or_insert(key(0), |_| unreachable!("cached"));
            assert!(Arc::ptr_eq(&first, &again));
            cache.get_or_insert(key(n), build);
        }
        assert_eq!(cache.len(), VIEW_CACHE_CAPACITY);
        let mut rebuilt = false;
        cache.get_or_insert(key(1), |owned| {
            rebuilt = true;
            build(owned)
        });
        assert!(rebuilt, "the least recently used view was dropped");
    }
}
