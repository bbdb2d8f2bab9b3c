"""What FastMCP's SEP-2640 skills provider (`SkillsDirectoryProvider`, the
pinned fastmcp) makes of each skills folder: the skills it serves, with
their frontmatter and files, and the folders it refuses. Its own
`_scan_skill_roots` gives both (the public provider raises on the first
refused folder, which is checked too). Run with the Python of the `py311`
venv that tests/e2e/clients/setup.sh makes; reads {"roots": [...]} on
stdin and prints one JSON object per root. Observes only."""

import json
import sys
from pathlib import Path

from fastmcp.skills.provider import SkillsDirectoryProvider, _scan_skill_roots


def main() -> None:
    request = json.load(sys.stdin)
    for root in request["roots"]:
        path = Path(root).absolute()
        skills, invalid = _scan_skill_roots([path])
        try:
            SkillsDirectoryProvider(path)
            provider_error = None
        except ValueError as exc:
            provider_error = str(exc)
        print(
            json.dumps(
                {
                    "root": root,
                    "skills": {
                        skill_path: {
                            "frontmatter": skill.frontmatter.root,
                            "files": sorted(skill.files),
                        }
                        for skill_path, skill in skills.items()
                    },
                    "invalid": invalid,
                    "provider_error": provider_error,
                }
            )
        )


if __name__ == "__main__":
    main()
