#!/usr/bin/env bash
# Two replicas of our HTTP server behind nginx, in the foreground: the server command that
# bench/runtime/replicas.sh gives http-load. nginx listens on 127.0.0.1:$1 with the configuration
# docs/guide/serve.md documents (its one ```nginx block, the replicas' and nginx's ports
# replaced, as tests/support/src/nginx.rs does), unprivileged, everything under a scratch
# folder; each replica is `$2… --stateless --bind 127.0.0.1:<free port>`. SIGTERM (how
# http-load stops a server) stops nginx and both replicas and removes the folder.
#
#   bash bench/runtime/replicas-front.sh PORT SERVER [ARGS…]
set -euo pipefail
port="$1"
shift
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
NGINX="${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}"
dir=$(mktemp -d "${TMPDIR:-/tmp}/replicas-front.XXXXXX")
pids=()
cleanup() {
  if [ ${#pids[@]} -gt 0 ]; then kill -TERM "${pids[@]}" 2>/dev/null || true; fi
  wait 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 0' TERM INT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
a=$(free_port)
b=$(free_port)
"$@" --stateless --bind "127.0.0.1:$a" >"$dir/replica-a.log" 2>&1 &
pids+=($!)
"$@" --stateless --bind "127.0.0.1:$b" >"$dir/replica-b.log" 2>&1 &
pids+=($!)

python3 - "$REPO/docs/guide/serve.md" "$dir" "$a" "$b" "$port" <<'PY'
import sys
guide, d, a, b, port = sys.argv[1:]
blocks = [rest.split("\n```")[0] for rest in open(guide).read().split("```nginx\n")[1:]]
if len(blocks) != 1:
    sys.exit(f"{guide} must hold exactly one ```nginx block, not {len(blocks)}")
site = blocks[0]
for documented, actual in (("server 127.0.0.1:8081;", f"server 127.0.0.1:{a};"),
                           ("server 127.0.0.1:8082;", f"server 127.0.0.1:{b};"),
                           ("listen 8080;", f"listen 127.0.0.1:{port};")):
    if site.count(documented) != 1:
        sys.exit(f"the nginx block of {guide} must contain `{documented}` once")
    site = site.replace(documented, actual)
open(f"{d}/skills.conf", "w").write(site)
# What the test adds around the documented block, with room for the load client's connections
# and no access log (a write per request would be measured too).
open(f"{d}/nginx.conf", "w").write(
    f"worker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log notice;\n"
    f"events {{ worker_connections 1024; }}\n"
    f"http {{\n    access_log off;\n    client_body_temp_path {d}/client_body;\n"
    f"    proxy_temp_path {d}/proxy;\n    fastcgi_temp_path {d}/fastcgi;\n    uwsgi_temp_path {d}/uwsgi;\n"
    f"    scgi_temp_path {d}/scgi;\n    include {d}/skills.conf;\n}}\n")
PY
"$NGINX" -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' 2>"$dir/nginx.log" &
pids+=($!)
wait -n || true
