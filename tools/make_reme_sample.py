"""Regenerate ``sample_reme_project/`` by driving reme-ai's own write jobs, as an agent would.

Needs a throw-away venv with the reference (it is NOT run in CI)::

    python3.11 -m venv /tmp/refvenv
    /tmp/refvenv/bin/pip install "reme-ai[as]==0.4.2.0"
    /tmp/refvenv/bin/python tools/make_reme_sample.py

What it writes (no LLM, no server, no embeddings):

* ``sample_reme_project/.reme/``: ReMe's default layout, written by ReMe's ``daily_write``,
  ``write``, ``frontmatter_update``, ``edit``, ``upload``, ``move`` and ``delete`` jobs:
  daily notes with ``session_id`` / ``source_conversation``, day-index pages, a resource note
  with ``source_resource`` / ``source_images``, digest nodes with a ``## Sources`` section,
  agent junk tags (comma-joined, list-as-string, date-like, whitespace variants), then tag
  updates, a move and a delete that leave the day-index pages stale, as they do in real use.
  Session transcripts (``session/dialog/<id>.jsonl``) are serialized agentscope ``Msg``
  records (what the agent wrapper persists), with fixed ids and times so reruns are identical.
* ``sample_reme_project/renamed/``: a ReMe config (``reme.yaml``: ``extends: default``,
  ``daily_dir: journal``, ``digest_dir: knowledge``) and the workspace ReMe wrote with it.

ReMe's own index (``metadata/``) is removed afterwards: it is ReMe's cache, not memory.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

REFERENCE_VERSION = "0.4.2.0"
REPO = Path(__file__).resolve().parent.parent
PROJECT = REPO / "sample_reme_project"
RENAMED_CONFIG = """\
# A ReMe config with renamed memory folders: `reme start config=reme.yaml` runs ReMe with it,
# `reme-tui --reme-config reme.yaml` opens the same workspace.
extends: default
workspace_dir: .reme
daily_dir: journal
digest_dir: knowledge
components:
  file_chunker:
    markdown:
      include_frontmatter_in_metadata: true
"""

JOBS = ("daily_write", "write", "frontmatter_update", "edit", "move", "delete", "daily_reindex")


def _app_config(workspace: Path, config_file: Path | None = None) -> dict[str, Any]:
    from reme.config import resolve_app_config  # type: ignore[import-not-found]

    overrides: dict[str, Any] = {
        "workspace_dir": str(workspace),
        "enable_logo": False,
        "log_to_console": False,
        "log_to_file": False,
    }
    if config_file is not None:
        overrides["config"] = str(config_file)
    config: dict[str, Any] = resolve_app_config(log_config=False, **overrides)
    jobs = config["jobs"]
    loop = jobs["index_update_loop"]
    selected = {name: jobs[name] for name in JOBS}
    # `move` rewrites the links its file graph knows: index once before moving, as the
    # background watcher would have done by then.
    selected["index_once"] = {
        "backend": "base",
        "watch_dirs": loop["watch_dirs"],
        "watch_suffixes": loop["watch_suffixes"],
        "steps": [dict(loop["steps"][0])],
    }
    # `upload` ships as a step (the HTTP service exposes it); a job makes it callable here.
    selected["upload"] = {"backend": "base", "steps": [{"backend": "upload_step"}]}
    config["jobs"] = selected
    return config


def _transcript(session_id: str, day: str, turns: list[tuple[str, str, Any]]) -> str:
    """One agentscope ``Msg`` per line; ids and times derived from the session, not the clock."""
    from agentscope.message import (  # type: ignore[import-not-found]
        Msg,
        TextBlock,
        ToolCallBlock,
        ToolResultBlock,
    )

    lines = []
    for index, (role, name, content) in enumerate(turns):
        stamp = f"{day}T09:{index * 2:02d}:00.000+08:00"
        blocks: list[Any] = []
        for part_index, part in enumerate(content if isinstance(content, list) else [content]):
            block_id = f"{session_id}-{index}-{part_index}"
            if isinstance(part, str):
                blocks.append(TextBlock(text=part, id=block_id, created_at=stamp))
            elif part[0] == "call":
                blocks.append(
                    ToolCallBlock(
                        id=part[1],
                        name=part[2],
                        input=json.dumps(part[3], ensure_ascii=False),
                        state="allowed",
                        created_at=stamp,
                    )
                )
            else:
                blocks.append(
                    ToolResultBlock(
                        id=part[1], name=part[2], output=part[3], state="success", created_at=stamp
                    )
                )
        msg = Msg(
            name=name,
            role=role,
            content=blocks,
            id=f"{session_id}-{index}",
            created_at=stamp,
        )
        lines.append(msg.model_dump_json(exclude_none=True))
    return "\n".join(lines) + "\n"


def _png_bytes() -> bytes:
    """A valid 1x1 PNG (a stand-in for a whiteboard photo)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = b"\x89PNG\r\n\x1a\n"
    ihdr = chunk(b"IHDR", (1).to_bytes(4, "big") * 2 + b"\x08\x02\x00\x00\x00")
    idat = chunk(b"IDAT", zlib.compress(b"\x00\xff\xff\xff"))
    return header + ihdr + idat + chunk(b"IEND", b"")


class Agent:
    """Calls ReMe jobs and fails loudly when one does not succeed."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, job: str, **kwargs: Any) -> Any:
        response = await self.app.run_job(job, **kwargs)
        if not response.success:
            raise SystemExit(f"{job} failed: {response.answer}")
        return response


SESSIONS: dict[str, tuple[str, list[tuple[str, str, Any]]]] = {
    "s-20260309-kickoff": (
        "2026-03-09",
        [
            ("user", "mia", "Let's start Orbit: a small dashboard for our satellite pass data."),
            (
                "assistant",
                "reme-agent",
                "Sounds good. What stack do you want, and when is the first demo?",
            ),
            ("user", "mia", "Svelte and SQLite. Demo to the ground-station team on March 20."),
            (
                "assistant",
                "reme-agent",
                [
                    "Noted. I'll keep this as a daily note.",
                    ("call", "call-1", "daily_write", {"name": "Kickoff with Mia"}),
                ],
            ),
            (
                "assistant",
                "reme-agent",
                [("result", "call-1", "daily_write", "Wrote daily/2026-03-09/Kickoff with Mia.md")],
            ),
        ],
    ),
    "s-20260310-pilot": (
        "2026-03-10",
        [
            ("user", "mia", "Here are the pilot notes from the ground station, and a photo."),
            (
                "assistant",
                "reme-agent",
                "Thanks. Pass latency averaged 42 s; the team wants alerts under 10 s.",
            ),
            ("user", "mia", "Also: summaries should use the OpenAI API, gold tier budget."),
        ],
    ),
    "s-20260312-bug": (
        "2026-03-12",
        [
            ("user", "mia", "Login fails after the token refresh. Can you look?"),
            (
                "assistant",
                "reme-agent",
                [
                    "Checking the refresh handler.",
                    ("call", "call-7", "read", {"path": "digest/wiki/project-orbit.md"}),
                ],
            ),
            (
                "assistant",
                "reme-agent",
                [("result", "call-7", "read", "Orbit: Svelte dashboard, SQLite store.")],
            ),
            (
                "assistant",
                "reme-agent",
                "The refresh handler drops the cookie path; fixed by setting path=/.",
            ),
        ],
    ),
    "s-20260313-retro": (
        "2026-03-13",
        [
            ("user", "mia", "Quick retro: what went well this week?"),
            (
                "assistant",
                "reme-agent",
                "Kickoff was clear, the pilot data arrived early, the login bug took a day.",
            ),
        ],
    ),
}


async def _write_main(root: Path) -> None:
    from reme.reme import ReMe  # type: ignore[import-not-found]

    workspace = root / ".reme"
    app = ReMe(**_app_config(workspace))
    await app.start()
    agent = Agent(app)
    try:
        for session_id, (day, turns) in SESSIONS.items():
            path = workspace / "session" / "dialog" / f"{session_id}.jsonl"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_transcript(session_id, day, turns), encoding="utf-8")

        await agent(
            "daily_write",
            date="2026-03-09",
            name="Kickoff with Mia",
            description="Orbit kickoff: Svelte + SQLite dashboard, first demo on March 20.",
            session_id="s-20260309-kickoff",
            content=(
                "# Kickoff with Mia\n\n"
                "Mia wants **Orbit**, a dashboard for satellite pass data. Stack: Svelte and "
                "SQLite. First demo for the ground-station team on 2026-03-20.\n\n"
                "See [[digest/wiki/project-orbit.md]] for the project page.\n"
            ),
            metadata={"memory_tags": ["Project Orbit", "Mia Chen"], "people": ["Mia Chen"]},
        )
        await agent(
            "daily_write",
            date="2026-03-09",
            name="Stack choice",
            description="Why Svelte and SQLite, and OpenAI for pass summaries.",
            session_id="s-20260309-kickoff",
            content=(
                "Svelte keeps the bundle small for the station's old laptops. SQLite because the "
                "pass data is a single writer. Summaries of each pass use the OpenAI API.\n"
            ),
            metadata={"memory_tags": ["svelte", "OpenAI, gold"], "type": "decision"},
        )
        await agent(
            "upload",
            src_path=str(_fixture(root, "pilot-notes.txt")),
            dst_path="resource/2026-03-10/pilot-notes.txt",
        )
        await agent(
            "upload",
            src_path=str(_fixture(root, "whiteboard.png")),
            dst_path="resource/2026-03-10/whiteboard.png",
        )
        await agent(
            "daily_write",
            date="2026-03-10",
            name="pilot-notes",
            description="Ground-station pilot: pass latency 42 s, alerts wanted under 10 s.",
            session_id="s-20260310-pilot",
            content=(
                "# Pilot notes\n\n"
                "Average pass latency was 42 seconds; the ground-station team wants latency "
                "alerts under 10 seconds. The whiteboard photo has the alert thresholds.\n"
            ),
            metadata={
                "memory_tags": ['["latency"', '"alerts"]'],
                "type": "resource",
            },
        )
        # Provenance the resource watcher would add (it runs an LLM; this is its write).
        await agent(
            "frontmatter_update",
            path="daily/2026-03-10/pilot-notes.md",
            metadata={
                "source_resource": "[[resource/2026-03-10/pilot-notes.txt]]",
                "source_images": [
                    "[[resource/2026-03-10/whiteboard.png]]",
                    "[[resource/2026-03-10/antenna.jpg]]",
                ],
            },
        )
        await agent(
            "daily_write",
            date="2026-03-10",
            name="Vector store spike",
            description="Tried sqlite-vss for pass similarity; too slow on the laptops.",
            session_id="s-20260310-pilot",
            content="sqlite-vss took 3 s per query on the station laptops. Dropped for now.\n",
            metadata={"memory_tags": '["sqlite", "spike"]'},
        )
        await agent(
            "daily_write",
            date="2026-03-10",
            name="每周同步",
            description="每周同步：演示日期不变，告警阈值待定。",
            session_id="s-20260310-pilot",
            content="演示日期仍是三月二十日。告警阈值等待地面站确认。\n",
            metadata={"memory_tags": ["Project Orbit", "2026-03-10"], "people": ["Mia Chen"]},
        )
        await agent(
            "daily_write",
            date="2026-03-12",
            name="Login bug triage",
            description="Login failed after token refresh: the cookie path was dropped.",
            session_id="s-20260312-bug",
            content=(
                "# Login bug\n\n"
                "After a token refresh the session cookie lost its path, so the next request "
                "was anonymous. Fix: set `path=/` when refreshing.\n\n"
                "Follow-up in [[daily/2026-03-13/Retro.md]].\n"
            ),
            metadata={"memory_tags": ["bug", "  project   orbit "], "severity": "high"},
        )
        await agent(
            "daily_write",
            date="2026-03-12",
            name="Summaries cost",
            description="Estimated the OpenAI cost of pass summaries.",
            session_id="s-20260312-bug",
            content="About 300 passes a week; summaries cost well under the gold budget.\n",
            metadata={"memory_tags": ["Open AI", "budget"], "type": "decision"},
        )
        await agent(
            "daily_write",
            date="2026-03-13",
            name="Retro",
            description="Week one retro: clear kickoff, early pilot data, one slow bug.",
            session_id="s-20260313-retro",
            content=(
                "Went well: kickoff, pilot data early. Slow: [[daily/2026-03-12/Login bug "
                "triage.md|the login bug]] took a day.\n"
            ),
            metadata={"memory_tags": ["retro", "OpenAI"], "people": ["Mia Chen"]},
        )

        await agent(
            "write",
            path="digest/wiki/project-orbit.md",
            name="Project Orbit",
            description="Orbit: a Svelte + SQLite dashboard for satellite pass data.",
            content=(
                "# Project Orbit\n\n"
                "A dashboard for satellite pass data, built with Svelte and SQLite for the "
                "ground-station team. Owner: [[digest/personal/mia-chen.md|Mia]]. Releases follow "
                "[[digest/procedure/release-orbit.md]].\n\n"
                "## Sources\n\n"
                "- The goal and stack were set in [[daily/2026-03-09/Kickoff with Mia.md]].\n"
                "- The stack rationale is in [[daily/2026-03-09/Stack choice.md]].\n"
                "- Latency targets come from [[daily/2026-03-10/pilot-notes.md|the pilot notes]]"
                " and the raw [[resource/2026-03-10/pilot-notes.txt]].\n"
                "- The sqlite-vss experiment is [[daily/2026-03-10/Vector store spike.md]].\n"
                "- Recorded in the conversation [[session/dialog/s-20260309-kickoff.jsonl]].\n"
            ),
            metadata={"memory_tags": ["project_orbit"], "type": "project", "status": "active"},
        )
        await agent(
            "write",
            path="digest/procedure/release-orbit.md",
            name="Release Orbit",
            description="How to ship an Orbit build to the ground station.",
            content=(
                "# Release Orbit\n\n"
                "1. Run the pass-data migrations on a copy of the SQLite file.\n"
                "2. Build the Svelte bundle and check its size.\n"
                "3. Refresh a login session to catch cookie-path regressions.\n\n"
                "Part of [[digest/wiki/project-orbit.md]].\n\n"
                "## Sources\n\n"
                "- The cookie-path check comes from [[daily/2026-03-12/Login bug triage.md]].\n"
                "- The session where it was found: [[session/dialog/s-20260312-bug.jsonl]].\n"
                "- A release rehearsal is described in [[session/dialog/s-20260320-demo.jsonl]]."
                "\n"
            ),
            metadata={"memory_tags": ["project_orbit", "release"], "type": "procedure"},
        )
        await agent(
            "write",
            path="digest/personal/mia-chen.md",
            name="Mia Chen",
            description="Mia Chen: Orbit's owner at the ground station.",
            content=(
                "# Mia Chen\n\n"
                "Runs the ground-station tooling; owns [[digest/wiki/project-orbit.md]]. "
                "Prefers short written updates.\n\n"
                "## Sources\n\n"
                "- Met in [[daily/2026-03-09/Kickoff with Mia.md]].\n"
                "- Her weekly sync is in [[daily/2026-03-10/每周同步.md]].\n"
            ),
            metadata={"memory_tags": ["Mia Chen"], "type": "person", "team": "ground-station"},
        )

        # Later in the week the agent retags, edits, renames and deletes; only daily_write
        # refreshes day-index pages, so these leave them stale.
        await agent(
            "frontmatter_update",
            path="daily/2026-03-09/Kickoff with Mia.md",
            metadata={"memory_tags": ["Project Orbit", "Mia Chen", "kickoff"]},
        )
        await agent(
            "edit",
            path="digest/wiki/project-orbit.md",
            old="for the ground-station team",
            new="for the ground-station team (demo on 2026-03-20)",
        )
        await agent("index_once")
        await agent(
            "move",
            src_path="daily/2026-03-12/Login bug triage.md",
            dst_path="daily/2026-03-12/login-bug-triage.md",
        )
        await agent("index_once")
        await agent("delete", path="daily/2026-03-10/Vector store spike.md")
    finally:
        await app.close()


async def _write_renamed(root: Path) -> None:
    from reme.reme import ReMe  # type: ignore[import-not-found]

    root.mkdir(parents=True, exist_ok=True)
    config_file = root / "reme.yaml"
    config_file.write_text(RENAMED_CONFIG, encoding="utf-8")
    app = ReMe(**_app_config(root / ".reme", config_file))
    await app.start()
    agent = Agent(app)
    try:
        await agent(
            "daily_write",
            date="2026-03-11",
            name="Antenna calibration",
            description="Calibrated the antenna offsets before the next pass.",
            session_id="s-20260311-antenna",
            content=(
                "Azimuth offset 0.4 degrees, elevation 0.1. See [[knowledge/wiki/antenna.md]].\n"
            ),
            metadata={"memory_tags": ["antenna", "calibration"]},
        )
        await agent(
            "write",
            path="knowledge/wiki/antenna.md",
            name="Antenna",
            description="The ground station's tracking antenna.",
            content=(
                "# Antenna\n\nA 3 m dish; offsets drift with temperature.\n\n## Sources\n\n"
                "- Offsets measured in [[journal/2026-03-11/Antenna calibration.md]].\n"
            ),
            metadata={"memory_tags": ["antenna"], "type": "wiki"},
        )
    finally:
        await app.close()


def _fixture(root: Path, name: str) -> Path:
    """Files the agent uploads, created outside the workspace (as a user's downloads)."""
    source = root.parent / f".upload-{name}"
    if name.endswith(".png"):
        source.write_bytes(_png_bytes())
    else:
        source.write_text(
            "Ground-station pilot, week of 2026-03-09\n"
            "passes observed: 31\naverage latency: 42 s\nwanted: alerts under 10 s\n",
            encoding="utf-8",
        )
    return source


def _finish(workspace: Path) -> None:
    """Drop ReMe's own index and caches: reme-tui must not need them."""
    for name in ("metadata", "mem_session", "log", "logs"):
        shutil.rmtree(workspace / name, ignore_errors=True)


async def _main() -> None:
    logging.disable(logging.WARNING)
    import reme  # type: ignore[import-not-found]

    version = getattr(reme, "__version__", "?")
    if version != REFERENCE_VERSION:
        raise SystemExit(f"need reme-ai {REFERENCE_VERSION}, found {version}")
    with tempfile.TemporaryDirectory(prefix="reme-sample-") as tmp:
        staging = Path(tmp) / "sample_reme_project"
        staging.mkdir()
        os.chdir(tmp)  # ReMe may write logs relative to the working directory
        await _write_main(staging)
        await _write_renamed(staging / "renamed")
        _finish(staging / ".reme")
        _finish(staging / "renamed" / ".reme")
        readme = PROJECT / "README.md"
        kept = readme.read_text(encoding="utf-8") if readme.exists() else None
        shutil.rmtree(PROJECT, ignore_errors=True)
        shutil.copytree(staging, PROJECT)
        if kept is not None:
            readme.write_text(kept, encoding="utf-8")
    count = sum(1 for p in PROJECT.rglob("*") if p.is_file())
    print(f"wrote {count} files under {PROJECT}", file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(_main())
