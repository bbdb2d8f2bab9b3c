"""What fast-agent (the pinned fast-agent-mcp) makes of each skills folder
given to it as its skills directory: its `SkillRegistry` reads every
`SKILL.md` right below the folder with python-frontmatter and PyYAML. Run
with the Python of the `py313` venv that tests/e2e/clients/setup.sh makes;
reads {"roots": [...]} on stdin and prints one JSON object per root with
the manifests it loaded and the errors it reported. Observes only."""

import json
import logging
import sys
from pathlib import Path

from fast_agent.skills.registry import SkillRegistry


def main() -> None:
    logging.disable(logging.CRITICAL)
    request = json.load(sys.stdin)
    for root in request["roots"]:
        manifests, errors = SkillRegistry.load_directory_with_errors(Path(root))
        print(
            json.dumps(
                {
                    "root": root,
                    "manifests": [
                        {
                            "path": str(manifest.path),
                            "name": manifest.name,
                            "description": manifest.description,
                            "license": manifest.license,
                            "compatibility": manifest.compatibility,
                            "metadata": manifest.metadata,
                            "allowed_tools": manifest.allowed_tools,
                        }
                        for manifest in manifests
                    ],
                    "errors": errors,
                },
                default=str,
            )
        )


if __name__ == "__main__":
    main()
