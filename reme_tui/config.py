"""Typed settings for reme-tui, read from a TOML file (XDG) with an env override.

The file lives at ``$REME_TUI_CONFIG`` when set, else ``$XDG_CONFIG_HOME/reme-tui/config.toml``
(``~/.config/reme-tui/config.toml``). Every key is optional::

    theme = "reme-dusk"            # persisted when you pick a theme in the app

    [search]
    limit = 50                     # results per query
    browse_limit = 200             # memories listed for an empty query
    debounce_ms = 120              # search-as-you-type delay once searches get slow
    vector_weight = 0.7

    [index]
    tag_field = "memory_tags"
    watch = true                   # live updates from the file system
    model = ""                     # model2vec model (semantic search), empty = BM25 only
    allow_download = false         # let `model` download a model id missing from the HF cache

    [history]                      # the change history (Changes view, --changes)
    enabled = true                 # record every change to the memories
    retention_days = 90            # drop changes (and finished merge-journal entries)
                                   # older than this (the current text stays)

    [keymap]                       # binding id -> keys, e.g.
    "focus_search" = "slash,ctrl+f"

Unknown keys and wrong types are reported as warnings, never fatal.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from reme_tui.engine.tags import DEFAULT_TAG_FIELD

APP_NAME = "reme-tui"
CONFIG_ENV = "REME_TUI_CONFIG"
DEFAULT_THEME = "reme-dusk"


@dataclass(frozen=True, slots=True)
class SearchSettings:
    limit: int = 50
    browse_limit: int = 200
    debounce_ms: int = 120
    vector_weight: float = 0.7


@dataclass(frozen=True, slots=True)
class IndexSettings:
    tag_field: str = DEFAULT_TAG_FIELD
    watch: bool = True
    model: str = ""
    allow_download: bool = False


@dataclass(frozen=True, slots=True)
class HistorySettings:
    enabled: bool = True
    retention_days: int = 90


@dataclass(frozen=True, slots=True)
class Settings:
    theme: str = DEFAULT_THEME
    search: SearchSettings = field(default_factory=SearchSettings)
    index: IndexSettings = field(default_factory=IndexSettings)
    history: HistorySettings = field(default_factory=HistorySettings)
    keymap: dict[str, str] = field(default_factory=dict)
    config_path: Path | None = None
    warnings: tuple[str, ...] = ()


def config_dir() -> Path:
    """The user's reme-tui config directory (XDG)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / APP_NAME


def default_config_path() -> Path:
    """The config file in effect: ``$REME_TUI_CONFIG`` or the XDG location."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override).expanduser()
    return config_dir() / "config.toml"


def user_themes_dir() -> Path:
    """Where users drop their own theme files."""
    return config_dir() / "themes"


def _coerce(section: str, cls: type, raw: Any, warnings: list[str]) -> Any:
    """Build a settings dataclass from a TOML table, keeping defaults for bad values."""
    if not isinstance(raw, dict):
        warnings.append(f"[{section}] must be a table; ignored")
        return cls()
    defaults = cls()
    values: dict[str, Any] = {}
    known = {f.name for f in fields(cls)}
    for key, value in raw.items():
        if key not in known:
            warnings.append(f"unknown setting {section}.{key}")
            continue
        expected = type(getattr(defaults, key))
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            warnings.append(
                f"{section}.{key} should be {expected.__name__}, got {type(value).__name__}"
            )
            continue
        if expected in (int, float) and value <= 0 and key != "vector_weight":
            warnings.append(f"{section}.{key} must be positive")
            continue
        values[key] = value
    return cls(**values)


def load_settings(path: Path | None = None) -> Settings:
    """Read settings from ``path`` (or the default location). A missing file means defaults."""
    path = path or default_config_path()
    warnings: list[str] = []
    data: dict[str, Any] = {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        pass
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        warnings.append(f"could not read config {path}: {error}")
    theme = data.get("theme", DEFAULT_THEME)
    if not isinstance(theme, str) or not theme:
        warnings.append("theme should be a non-empty string")
        theme = DEFAULT_THEME
    keymap_raw = data.get("keymap", {})
    keymap: dict[str, str] = {}
    if isinstance(keymap_raw, dict):
        for binding_id, keys in keymap_raw.items():
            if isinstance(keys, list) and all(isinstance(k, str) for k in keys):
                keys = ",".join(keys)
            if isinstance(keys, str) and keys.strip():
                keymap[str(binding_id)] = keys.strip()
            else:
                warnings.append(f"keymap.{binding_id} should be a key string")
    else:
        warnings.append("[keymap] must be a table; ignored")
    for key in data:
        if key not in {"theme", "search", "index", "history", "keymap"}:
            warnings.append(f"unknown setting {key}")
    return Settings(
        theme=theme,
        search=_coerce("search", SearchSettings, data.get("search", {}), warnings),
        index=_coerce("index", IndexSettings, data.get("index", {}), warnings),
        history=_coerce("history", HistorySettings, data.get("history", {}), warnings),
        keymap=keymap,
        config_path=path,
        warnings=tuple(warnings),
    )


# What each key does, for `reme-tui config keys` (the module docstring shows them in a file).
KEY_HELP: dict[str, str] = {
    "theme": "the app's theme; persisted when you pick one in the app",
    "search.limit": "results per query in the app (the command line's search keeps ReMe's 5)",
    "search.browse_limit": "memories the app lists for an empty query",
    "search.debounce_ms": "the app's search-as-you-type delay once searches get slow",
    "search.vector_weight": "weight of the vector ranking in the fusion, 0..1 (app and commands)",
    "index.tag_field": "the frontmatter key that holds the tags (app and commands)",
    "index.watch": "the app's live updates from the file system",
    "index.model": "model2vec model for semantic search, empty = BM25 only (app and commands)",
    "index.allow_download": "let index.model download a model id missing from the HF cache",
    "history.enabled": "record every change to the memories (Changes view, reme-tui changes)",
    "history.retention_days": "drop recorded changes older than this (the current text stays)",
    "keymap.BINDING_ID": (
        "keys for one of the app's bindings, e.g. \"slash,ctrl+f\" (ids: the app's ? screen)"
    ),
}


def setting_rows(settings: Settings) -> list[tuple[str, str, object]]:
    """(key, type, value) of every setting in ``settings``, in file order; the keymap's
    entries as ``keymap.ID``."""
    rows: list[tuple[str, str, object]] = [("theme", "string", settings.theme)]
    for section in ("search", "index", "history"):
        table = getattr(settings, section)
        for item in fields(table):
            value = getattr(table, item.name)
            rows.append((f"{section}.{item.name}", _type_name(value), value))
    rows += [(f"keymap.{binding}", "string", keys) for binding, keys in settings.keymap.items()]
    return rows


def _type_name(value: object) -> str:
    return {bool: "bool", int: "integer", float: "float", str: "string"}[type(value)]


def toml_value(value: object) -> str:
    """One setting's value as TOML writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _toml_string(value)
    return str(value)


_THEME_LINE = re.compile(r"^theme\s*=.*$", re.MULTILINE)
_FIRST_TABLE = re.compile(r"^\s*\[", re.MULTILINE)


def save_theme(name: str, path: Path | None = None) -> Path:
    """Persist the chosen theme, changing only the top-level ``theme = ...`` line."""
    path = path or default_config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    line = f"theme = {_toml_string(name)}"
    table = _FIRST_TABLE.search(text)
    head, tail = (text[: table.start()], text[table.start() :]) if table else (text, "")
    found = _THEME_LINE.search(head)
    head = _THEME_LINE.sub(line, head, count=1) if found else line + "\n" + head
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(head + tail, encoding="utf-8")
    tmp.replace(path)
    return path


def _toml_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'
