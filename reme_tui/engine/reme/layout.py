"""Where the workspace is (`.reme` discovery) and what ReMe's own YAML config says about it.

ReMe (0.4.2.0) keeps its workspace in `workspace_dir` (default `.reme`, resolved against the
directory `reme start` runs in, `~` expanded) with the sub-folders `daily_dir`, `digest_dir`,
`session_dir` and `resource_dir`; a YAML config passed as `reme start config=FILE` may rename
them and usually starts with `extends: default`. The chunker option
`components.file_chunker.markdown.include_frontmatter_in_metadata` decides whether search
filters can test frontmatter keys.

A relative `workspace_dir` in a config given to reme-tui is resolved against the directory
of the config file (ReMe resolves it against its working directory; the config's own folder
is where `reme start config=FILE` is normally run, and it does not depend on where reme-tui
is started).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from ..parse import load_yaml

DEFAULT_WORKSPACE_DIR = ".reme"
_MAX_CONFIG_BYTES = 1_048_576
_MAX_EXTENDS_DEPTH = 8
_ENV_VAR_RE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}")


class RemeConfigError(ValueError):
    """A ReMe config that cannot be used; the message says which file and why."""


@dataclass(frozen=True, slots=True)
class RemeLayout:
    """ReMe's folder names inside a workspace, and its chunk-metadata switch."""

    daily_dir: str = "daily"
    digest_dir: str = "digest"
    session_dir: str = "session"
    resource_dir: str = "resource"
    metadata_dir: str = "metadata"
    include_frontmatter_in_metadata: bool = False
    frontmatter_keys_in_metadata: tuple[str, ...] = ()

    @property
    def memory_roots(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((self.daily_dir, self.digest_dir)))

    @property
    def dialog_dir(self) -> str:
        return f"{self.session_dir}/dialog"

    def with_dirs(self, daily_dir: str | None, digest_dir: str | None) -> RemeLayout:
        """This layout with `--daily-dir` / `--digest-dir` applied (validated)."""
        from dataclasses import replace

        return replace(
            self,
            daily_dir=_folder(daily_dir, "--daily-dir") if daily_dir else self.daily_dir,
            digest_dir=_folder(digest_dir, "--digest-dir") if digest_dir else self.digest_dir,
        )

    def key(self) -> str:
        """A stable text identity for saved-index keys."""
        return "|".join(
            [
                self.daily_dir,
                self.digest_dir,
                self.session_dir,
                self.resource_dir,
                str(self.include_frontmatter_in_metadata),
                ",".join(self.frontmatter_keys_in_metadata),
            ]
        )


DEFAULT_LAYOUT = RemeLayout()


@dataclass(frozen=True, slots=True)
class RemeConfig:
    """What a ReMe config file decides for reme-tui: the workspace folder and its layout."""

    path: Path
    workspace: Path
    layout: RemeLayout
    warnings: tuple[str, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Discovery:
    """The workspace reme-tui chose and why (shown in the status bar and on stderr)."""

    root: Path
    reason: str


def discover_workspace(cwd: Path) -> Discovery:
    """`./.reme` if it is a directory, else the nearest `.reme/` in a parent, else `cwd`."""
    here = cwd.absolute()
    for folder in (here, *here.parents):
        candidate = folder / DEFAULT_WORKSPACE_DIR
        try:
            if candidate.is_dir():
                where = "here" if folder == here else f"in {folder}"
                return Discovery(candidate, f"found .reme {where}")
        except OSError:
            continue
    return Discovery(here, "no .reme found; using the current directory")


def project_workspace(given: Path, layout: RemeLayout) -> Path | None:
    """``given/.reme`` when ``given`` is a project ReMe runs in rather than a workspace: it
    holds a `.reme/` folder and none of the memory folders (`reme start` makes `.reme` in the
    folder it runs in, so a user naturally names the project). None otherwise."""
    candidate = given / DEFAULT_WORKSPACE_DIR
    try:
        if not candidate.is_dir():
            return None
        if any((given / folder).is_dir() for folder in layout.memory_roots):
            return None
    except OSError:
        return None
    return candidate


def load_reme_config(path: Path) -> RemeConfig:
    """Read a ReMe YAML (or JSON) config, following `extends` (`default` = ReMe's defaults,
    or a config file relative to this one). Raises RemeConfigError with a clear message."""
    config_path = path.expanduser()
    merged = _load_with_parents(config_path, ())
    warnings: list[str] = []
    raw_workspace = merged.get("workspace_dir", DEFAULT_WORKSPACE_DIR)
    if not isinstance(raw_workspace, str) or not raw_workspace.strip():
        raise RemeConfigError(f"{config_path}: workspace_dir must be a non-empty string")
    workspace = Path(raw_workspace.strip()).expanduser()
    if not workspace.is_absolute():
        workspace = config_path.absolute().parent / workspace
    layout = RemeLayout(
        daily_dir=_folder(merged.get("daily_dir", "daily"), "daily_dir", config_path),
        digest_dir=_folder(merged.get("digest_dir", "digest"), "digest_dir", config_path),
        session_dir=_folder(merged.get("session_dir", "session"), "session_dir", config_path),
        resource_dir=_folder(merged.get("resource_dir", "resource"), "resource_dir", config_path),
        metadata_dir=_folder(merged.get("metadata_dir", "metadata"), "metadata_dir", config_path),
        **_chunker_options(merged, config_path, warnings),
    )
    return RemeConfig(config_path, Path(os.path.normpath(workspace)), layout, tuple(warnings))


def _chunker_options(merged: Mapping[str, Any], path: Path, warnings: list[str]) -> dict[str, Any]:
    markdown = _dig(merged, ("components", "file_chunker", "markdown"))
    if not isinstance(markdown, Mapping):
        return {}
    include = markdown.get("include_frontmatter_in_metadata", False)
    if not isinstance(include, bool):
        warnings.append(
            f"{path}: include_frontmatter_in_metadata is {include!r}, not true/false; using false"
        )
        include = False
    keys = markdown.get("include_frontmatter_keys_in_metadata") or []
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        warnings.append(f"{path}: include_frontmatter_keys_in_metadata must be a list of strings")
        keys = []
    return {"include_frontmatter_in_metadata": include, "frontmatter_keys_in_metadata": tuple(keys)}


def _dig(data: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    current: Any = data
    for key in keys:
        if not isinstance(current, Mapping):
            return None
        current = current.get(key)
    return current


def _folder(value: Any, label: str, path: Path | None = None) -> str:
    """A workspace-relative folder name as ReMe joins it: no absolute path, no `..`."""
    where = f"{path}: " if path is not None else ""
    if not isinstance(value, str) or not value.strip():
        raise RemeConfigError(f"{where}{label} must be a non-empty folder name, got {value!r}")
    text = value.strip().replace("\\", "/").strip("/")
    posix = PurePosixPath(text)
    if value.strip().startswith("/") or posix.is_absolute() or not text:
        raise RemeConfigError(f"{where}{label} must be relative to the workspace, got {value!r}")
    parts = [p for p in posix.parts if p != "."]
    if not parts or ".." in parts:
        raise RemeConfigError(f"{where}{label} must stay inside the workspace, got {value!r}")
    return "/".join(parts)


def _load_with_parents(path: Path, stack: tuple[str, ...]) -> dict[str, Any]:
    identity = os.path.realpath(path) if path.exists() else str(path)
    if identity in stack:
        chain = " -> ".join((*stack, identity))
        raise RemeConfigError(f"circular `extends` in ReMe config: {chain}")
    if len(stack) >= _MAX_EXTENDS_DEPTH:
        raise RemeConfigError(f"{path}: `extends` nests deeper than {_MAX_EXTENDS_DEPTH} files")
    config = _read(path)
    raw_parents = config.pop("extends", None)
    parents = [raw_parents] if isinstance(raw_parents, str) else (raw_parents or [])
    if not isinstance(parents, list):
        raise RemeConfigError(f"{path}: `extends` must be a name or a list of names")
    merged: dict[str, Any] = {}
    for parent in parents:
        if not isinstance(parent, str) or not parent:
            raise RemeConfigError(f"{path}: `extends` entries must be non-empty strings")
        if parent == "default":
            continue  # ReMe's defaults are RemeLayout's defaults
        relative = path.parent / parent
        if Path(parent).suffix in (".yaml", ".yml", ".json") and relative.is_file():
            merged = _deep_merge(merged, _load_with_parents(relative, (*stack, identity)))
        else:
            raise RemeConfigError(
                f"{path}: `extends: {parent}` is not `default` or a config file next to it; "
                "reme-tui reads only those"
            )
    return _deep_merge(merged, config)


def _read(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            if not os.path.isfile(path):
                raise RemeConfigError(f"ReMe config {path} is not a regular file")
            data = handle.read(_MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        raise RemeConfigError(f"ReMe config {path} does not exist") from None
    except IsADirectoryError:
        raise RemeConfigError(f"ReMe config {path} is a directory") from None
    except OSError as exc:
        raise RemeConfigError(f"cannot read ReMe config {path}: {exc.strerror or exc}") from None
    if len(data) > _MAX_CONFIG_BYTES:
        raise RemeConfigError(f"ReMe config {path} is larger than 1 MB; not a config")
    try:
        text = data.decode("utf-8")
        loaded = load_yaml(text)  # JSON is YAML too; bounded, as _expand_env walks it all
    except UnicodeDecodeError:
        raise RemeConfigError(f"ReMe config {path} is not UTF-8 text") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise RemeConfigError(f"ReMe config {path} is not valid YAML{where}") from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise RemeConfigError(f"ReMe config {path} must be a mapping at the top level")
    expanded: dict[str, Any] = _expand_env(loaded)
    return expanded


def _expand_env(value: Any) -> Any:
    """`${VAR}` / `${VAR:-default}` as ReMe expands them (an unset VAR without default is an
    error there too)."""
    if isinstance(value, str):
        return _ENV_VAR_RE.sub(_env_value, value)
    if isinstance(value, dict):
        return {k: _expand_env(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_expand_env(v) for v in value]
    return value


def _env_value(match: re.Match[str]) -> str:
    value = os.environ.get(match.group(1))
    if value is not None:
        return value
    if match.group(2) is not None:
        return match.group(2)
    raise RemeConfigError(f"ReMe config refers to ${{{match.group(1)}}}, which is not set")


def _deep_merge(base: Mapping[str, Any], update: Mapping[str, Any]) -> dict[str, Any]:
    result = dict(base)
    for key, value in update.items():
        if key in result and isinstance(result[key], Mapping) and isinstance(value, Mapping):
            result[key] = _deep_merge(result[key], value)
        else:
            result[key] = value
    return result


@dataclass(frozen=True, slots=True)
class WorkspaceChoice:
    """The workspace and layout reme-tui opens, why, and what to warn about."""

    root: Path
    layout: RemeLayout
    reason: str
    warnings: tuple[str, ...] = ()
    discovered: bool = False  # chosen without an explicit WORKSPACE (worth saying so)


def choose_workspace(
    explicit: str | os.PathLike[str] | None,
    *,
    config_file: str | os.PathLike[str] | None = None,
    daily_dir: str | None = None,
    digest_dir: str | None = None,
    cwd: Path | None = None,
    into_project: bool = True,
) -> WorkspaceChoice:
    """WORKSPACE if given; else `workspace_dir` of `--reme-config`; else `.reme` discovery.

    The layout comes from the config (ReMe's defaults without one), then `--daily-dir` /
    `--digest-dir`. A WORKSPACE that is a project holding `.reme/` opens that `.reme/` unless
    ``into_project`` is False (`--all-markdown` means the folder as given). Raises
    RemeConfigError for a config or folder name that cannot be used.
    """
    layout = DEFAULT_LAYOUT
    warnings: tuple[str, ...] = ()
    config: RemeConfig | None = None
    if config_file is not None:
        config = load_reme_config(Path(config_file))
        layout, warnings = config.layout, config.warnings
    layout = layout.with_dirs(daily_dir, digest_dir)
    if explicit is not None:
        given = Path(explicit)
        inner = project_workspace(given, layout) if into_project else None
        if inner is not None:
            reason = f"the {DEFAULT_WORKSPACE_DIR}/ workspace of the project {given}"
            return WorkspaceChoice(inner, layout, reason, warnings, discovered=True)
        return WorkspaceChoice(given, layout, "given on the command line", warnings)
    if config is not None:
        reason = f"workspace_dir of {config.path}"
        return WorkspaceChoice(config.workspace, layout, reason, warnings, discovered=True)
    found = discover_workspace(cwd or Path.cwd())
    return WorkspaceChoice(found.root, layout, found.reason, warnings, discovered=True)
