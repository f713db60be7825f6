"""A small, fixed ReMe workspace for UI tests (independent of sample_workspace/)."""

from __future__ import annotations

from pathlib import Path

FILES: dict[str, str] = {
    "daily/2026-01-05/kickoff.md": """---
name: Project Atlas kickoff
description: First meeting about the Atlas migration
memory_tags: [project_atlas, alice, meeting]
---
# Kickoff

Alice proposed migrating the billing database to Postgres.
Bob worried about the migration window.

See [[digest/atlas.md]] for the running summary.
""",
    "daily/2026-01-19/schema.md": """---
name: Atlas schema review
description: Reviewed the new billing schema
memory_tags: [project_atlas, bob]
---
# Schema review

The billing schema needs an index on invoice date.
Postgres partitioning was rejected for now.

Follows up [[daily/2026-01-05/kickoff.md]].
""",
    "daily/2026-02-02/cutover.md": """---
name: Cutover rehearsal
description: Dry run of the Postgres cutover
memory_tags: [project_atlas, alice, ops]
---
# Cutover rehearsal

The migration rehearsal took 40 minutes. Alice wrote the runbook.
Links to [[daily/2026-01-19/schema.md]] and to [[notes/missing.md]].
""",
    "daily/2026-02-20.md": """---
name: Garden notes
description: Tomatoes and basil
memory_tags: [garden]
---
Planted tomatoes and basil. The garden needs more sun.
""",
    "daily/2026-03-03/retro.md": """---
name: Atlas retro
description: What went well and what did not
memory_tags: [project_atlas, meeting]
---
# Retro

Migration finished. Postgres is faster; billing reports went from minutes to seconds.

## Actions

- Alice: archive the old database.
- Bob: document the schema.
""",
    "daily/2026-03-10/cjk.md": """---
name: 会议记录
description: 中文笔记
memory_tags: [项目, meeting]
---
今天讨论了数据库迁移。
""",
    "digest/atlas.md": """---
name: Atlas digest
description: Running summary of the Atlas migration
memory_tags: [project_atlas, digest]
---
# Atlas

- Kickoff: [[daily/2026-01-05/kickoff.md]]
- Retro: [[daily/2026-03-03/retro.md]]

The migration moved billing to Postgres.
""",
    "digest/broken.md": """---
name: 2026-04-05
memory_tags: project_atlas
---
This file's frontmatter is void because name is a date.
""",
}


def build_workspace(root: Path) -> Path:
    """Write the fixture files under ``root`` and return it."""
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "notes").mkdir(exist_ok=True)
    (root / "notes" / "not-a-memory.md").write_text("ignored\n", encoding="utf-8")
    return root
