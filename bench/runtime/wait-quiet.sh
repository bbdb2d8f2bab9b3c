# Sourced by run.sh and ab-http.sh: wait_quiet waits until the 1-minute load average stays under
# $LOAD_MAX for $LOAD_HOLD s, at most $LOAD_TIMEOUT s (then it says so and returns); NO_WAIT=1
# returns at once. It sets WAITED to the seconds it waited.
wait_quiet() {
  local start now load below=""
  start=$(date +%s)
  if [ -z "${NO_WAIT:-}" ]; then
    while :; do
      load=$(cut -d' ' -f1 /proc/loadavg); now=$(date +%s)
      if awk -v l="$load" -v m="$LOAD_MAX" 'BEGIN{exit !(l<m)}'; then
        below="${below:-$now}"
        (( now - below >= ${LOAD_HOLD%.*} )) && break
      else
        below=""
      fi
      if (( now - start > ${LOAD_TIMEOUT%.*} )); then echo "  load still $load; measuring anyway" >&2; break; fi
      sleep 2
    done
  fi
  WAITED=$(( $(date +%s) - start ))
}
