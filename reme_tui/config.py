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

    [history]                      # the change history (Changes view, reme-tui changes)
    enabled = true                 # record every change to the memories
    retention_days = 90            # drop changes (and finished merge-journal entries)
                                   # older than this (the current text stays)

    [keymap]                       # binding id -> keys, e.g.
    "focus_search" = "slash,ctrl+f"

Unknown keys and wrong types are reported as warnings, never fatal.
"""

from __future__ import annotations

import os
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import msgspec
from platformdirs.unix import Unix as _Xdg

from reme_tui.engine.tags import DEFAULT_TAG_FIELD

APP_NAME = "reme-tui"
CONFIG_ENV = "REME_TUI_CONFIG"
DEFAULT_THEME = "reme-dusk"

# A setting that must be above zero (a count, a delay, a number of days).
Positive = Annotated[int, msgspec.Meta(gt=0)]
Weight = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]


class SearchSettings(msgspec.Struct, frozen=True, kw_only=True):
    limit: Positive = 50
    browse_limit: Positive = 200
    debounce_ms: Positive = 120
    vector_weight: Weight = 0.7


class IndexSettings(msgspec.Struct, frozen=True, kw_only=True):
    tag_field: str = DEFAULT_TAG_FIELD
    watch: bool = True
    model: str = ""
    allow_download: bool = False


class HistorySettings(msgspec.Struct, frozen=True, kw_only=True):
    enabled: bool = True
    retention_days: Positive = 90


@dataclass(frozen=True, slots=True)
class Settings:
    theme: str = DEFAULT_THEME
    search: SearchSettings = field(default_factory=SearchSettings)
    index: IndexSettings = field(default_factory=IndexSettings)
    history: HistorySettings = field(default_factory=HistorySettings)
    keymap: dict[str, str] = field(default_factory=dict)
    config_path: Path | None = None
    warnings: tuple[str, ...] = ()


class ConfigSaveError(Exception):
    """The settings file could not be written back without losing what is in it."""


def config_dir() -> Path:
    """The user's reme-tui config directory: XDG on every POSIX system
    (``$XDG_CONFIG_HOME/reme-tui``, else ``~/.config/reme-tui``), macOS included, where the
    file has always been looked for."""
    return _Xdg(APP_NAME, appauthor=False).user_config_path


def default_config_path() -> Path:
    """The config file in effect: ``$REME_TUI_CONFIG`` or the XDG location."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override).expanduser()
    return config_dir() / "config.toml"


def user_themes_dir() -> Path:
    """Where users drop their own theme files."""
    return config_dir() / "themes"


_Section = typing.TypeVar("_Section", SearchSettings, IndexSettings, HistorySettings)


def _coerce(section: str, cls: type[_Section], raw: Any, warnings: list[str]) -> _Section:
    """A settings Struct from a TOML table (msgspec.convert, key by key), keeping the default
    of every key whose value is wrong and saying why: ``search.limit should be int, got str``,
    ``history.retention_days must be positive``, ``unknown setting index.bogus``."""
    if not isinstance(raw, dict):
        warnings.append(f"[{section}] must be a table; ignored")
        return cls()
    known = {info.name: info.type for info in msgspec.structs.fields(cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in known:
            warnings.append(f"unknown setting {section}.{key}")
            continue
        try:
            values[key] = msgspec.convert(value, known[key])
        except msgspec.ValidationError as exc:
            warnings.append(f"{section}.{key} {_why(known[key], value, exc)}")
    return msgspec.convert(values, cls)


def _why(expected: Any, value: Any, exc: msgspec.ValidationError) -> str:
    """What is wrong with ``value``: the wrong type, or (right type) outside the range."""
    base, *meta = typing.get_args(expected) or (expected,)
    try:
        msgspec.convert(value, base)
    except msgspec.ValidationError:
        return f"should be {base.__name__}, got {type(value).__name__}"
    if base is int:
        return "must be positive"
    bound = meta[0] if meta else None
    if bound is not None and bound.ge is not None and bound.le is not None:
        return f"must be between {bound.ge:g} and {bound.le:g}"
    return str(exc).lower()


_Theme = Annotated[str, msgspec.Meta(min_length=1)]
_Keys = str | list[str]  # "slash,ctrl+f" or ["slash", "ctrl+f"]


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
    try:
        theme = msgspec.convert(data.get("theme", DEFAULT_THEME), _Theme)
    except msgspec.ValidationError:
        warnings.append("theme should be a non-empty string")
        theme = DEFAULT_THEME
    keymap_raw = data.get("keymap", {})
    keymap: dict[str, str] = {}
    if isinstance(keymap_raw, dict):
        for binding_id, keys in keymap_raw.items():
            try:
                given = msgspec.convert(keys, _Keys)
            except msgspec.ValidationError:
                given = ""
            joined = (given if isinstance(given, str) else ",".join(given)).strip()
            if joined:
                keymap[str(binding_id)] = joined
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
        for name in table.__struct_fields__:
            value = getattr(table, name)
            rows.append((f"{section}.{name}", _type_name(value), value))
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


def save_theme(name: str, path: Path | None = None) -> Path:
    """Persist the chosen theme: the top-level ``theme`` is set (added before the first table
    when absent) and every other byte, comments included, stays as it was (tomlkit). A file
    that is not valid TOML is left alone: ConfigSaveError."""
    import tomlkit  # only when writing (reading uses tomllib): not on the app's start path
    from tomlkit.exceptions import TOMLKitError

    path = path or default_config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    try:
        document = tomlkit.parse(text)
    except TOMLKitError as exc:
        raise ConfigSaveError(f"{path} is not valid TOML ({exc}); left as it is") from None
    document["theme"] = name
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(tomlkit.dumps(document), encoding="utf-8")
    tmp.replace(path)
    return path


def _toml_string(value: str) -> str:
    import tomlkit

    return tomlkit.string(value).as_string()
