"""What skills-ref (the pinned reference validator, `agentskills`) makes of
each skill folder: `validate` (what `agentskills validate` prints) and, when
valid, `read_properties` (what `agentskills read-properties` and `to-prompt`
show). Run with the Python of the `skills-ref` venv that
tests/e2e/clients/setup.sh makes; reads {"folders": [...]} on stdin and
prints one JSON object per folder. Observes only: the verdicts are drawn by
skills-cli/tests/readers.rs."""

import json
import sys
from pathlib import Path

from skills_ref.parser import read_properties
from skills_ref.validator import validate


def main() -> None:
    request = json.load(sys.stdin)
    for folder in request["folders"]:
        path = Path(folder)
        try:
            errors = validate(path)
        except Exception as exc:  # skills-ref crashes on some inputs
            errors = [f"crash: {type(exc).__name__}: {exc}"]
        properties = None
        if not errors:
            properties = read_properties(path).to_dict()
        print(json.dumps({"folder": folder, "errors": errors, "properties": properties}))


if __name__ == "__main__":
    main()
