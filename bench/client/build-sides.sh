# Sourced by ab.sh and memory.sh: the sync benchmark's client (bench/client/sync-bench) built in
# release from BEFORE and from AFTER, as $WORK/sync-bench-before and $WORK/sync-bench-after. Each
# side is a `git archive` of its commit in $WORK/<side>, kept while the commit is unchanged (its
# mtimes too, so nothing rebuilds); both share $WORK/bench-target. Needs REPO, WORK, BEFORE, AFTER.
build_sync_bench_sides() {
    local side rev commit
    for side in before after; do
        rev=$BEFORE; [ "$side" = after ] && rev=$AFTER
        commit=$(git -C "$REPO" rev-parse "$rev")
        if [ "$(cat "$WORK/$side/.commit" 2>/dev/null)" != "$commit" ]; then
            rm -rf "${WORK:?}/$side" && mkdir -p "$WORK/$side"
            git -C "$REPO" archive "$commit" | tar -x -C "$WORK/$side"
            echo "$commit" >"$WORK/$side/.commit"
        fi
        # The member's own manifest: a snapshot before bench/Cargo.toml held sync-bench in a
        # workspace (and lock) of its own there; cargo finds whichever workspace the snapshot has.
        CARGO_TARGET_DIR="$WORK/bench-target" \
            cargo build --release --quiet --manifest-path "$WORK/$side/bench/client/sync-bench/Cargo.toml"
        cp "$WORK/bench-target/release/sync-bench" "$WORK/sync-bench-$side"
    done
}
