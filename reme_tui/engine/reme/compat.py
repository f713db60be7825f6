"""ReMe-compatibility report: per file, what ReMe silently drops, with a fix where one is safe.

Built from the engine's diagnostics. Kinds (counted per file problem):

``frontmatter-voided``  invalid YAML, not a mapping, a non-string key, ``name`` or
                        ``description`` not a string, or a byte-order mark: ReMe ignores
                        the whole frontmatter, tags included (fix text: quote the value);
``tags-not-list``       a scalar ``memory_tags`` yields no tags (safe fix: make it a list);
``tag-dropped``         an item that is not a valid tag or is over 64 characters
                        (safe fix: remove it; ReMe never indexed it);
``tag-past-third``      only the first three distinct tags count (fix text: reorder or
                        drop; which tags matter is the writer's call);
``link-dangling``       a wikilink to no memory (fix text: the memory with the same file
                        name, when exactly one exists);
``no-tags``             a memory tag filters can never find (fix text: add tags).

``Engine.apply_fix`` performs the two safe fixes (``writes.safe_fix_text``) through the
one write path (only the tag lines change, conflict-checked); everything else is reported
with the suggested text.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from ..codes import Code
from ..parse import quote_scalar
from ..records import Diagnostic
from ..tags import MAX_TAGS_PER_FILE

if TYPE_CHECKING:
    from ..engine import Engine

KINDS: tuple[str, ...] = (
    "frontmatter-voided",
    "tags-not-list",
    "tag-dropped",
    "tag-past-third",
    "link-dangling",
    "no-tags",
)
SHORT_LABELS = {
    "frontmatter-voided": "voided",
    "tags-not-list": "scalar tags",
    "tag-dropped": "bad tags",
    "tag-past-third": "4th+ tags",
    "link-dangling": "dangling",
    "no-tags": "untagged",
}
_KIND_OF_CODE = {
    Code.YAML_INVALID: "frontmatter-voided",
    Code.FRONTMATTER_NOT_MAPPING: "frontmatter-voided",
    Code.FRONTMATTER_BAD_KEY: "frontmatter-voided",
    Code.NAME_NOT_STRING: "frontmatter-voided",
    Code.DESCRIPTION_NOT_STRING: "frontmatter-voided",
    Code.BOM: "frontmatter-voided",
    Code.TAGS_NOT_LIST: "tags-not-list",
    Code.TAG_INVALID: "tag-dropped",
    Code.TAG_TOO_LONG: "tag-dropped",
    Code.TAG_OVER_LIMIT: "tag-past-third",
    Code.LINK_DANGLING: "link-dangling",
    Code.NO_TAGS: "no-tags",
}
SAFE_FIX_KINDS = frozenset({"tags-not-list", "tag-dropped"})


def kind_of(diagnostic: Diagnostic) -> str | None:
    """The report kind of an engine diagnostic, or None when ReMe drops nothing for it."""
    return _KIND_OF_CODE.get(diagnostic.code)


def compat_counts(diagnostics: Iterable[Diagnostic]) -> dict[str, int]:
    """Problems per kind (every kind present, zero included), in ``KINDS`` order."""
    counts = Counter(kind for d in diagnostics if (kind := kind_of(d)) is not None)
    return {kind: counts.get(kind, 0) for kind in KINDS}


def format_counts(counts: dict[str, int]) -> str:
    """``2 voided · 1 bad tags`` for the non-zero kinds; empty when all are zero."""
    return " · ".join(f"{n} {SHORT_LABELS[k]}" for k, n in counts.items() if n)


@dataclass(frozen=True)
class CompatIssue:
    path: str
    line: int | None
    kind: str
    code: str
    message: str
    fix: str | None  # what to write, or what to do; None when there is nothing to suggest
    safe_fix: bool  # ``Engine.apply_fix`` can do it

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "kind": self.kind,
            "code": self.code,
            "message": self.message,
            "fix": self.fix,
            "safe_fix": self.safe_fix,
        }


@dataclass(frozen=True)
class CompatReport:
    issues: tuple[CompatIssue, ...]

    @property
    def counts(self) -> dict[str, int]:
        counts = Counter(issue.kind for issue in self.issues)
        return {kind: counts.get(kind, 0) for kind in KINDS}

    def by_file(self) -> dict[str, list[CompatIssue]]:
        out: dict[str, list[CompatIssue]] = defaultdict(list)
        for issue in self.issues:
            out[issue.path].append(issue)
        return dict(out)

    def to_json(self) -> dict[str, Any]:
        return {
            "counts": self.counts,
            "files": [
                {"path": path, "issues": [i.to_json() for i in issues]}
                for path, issues in self.by_file().items()
            ],
        }


def compat_report(engine: Engine) -> CompatReport:
    """Every file problem ReMe would silently drop, with suggested fixes."""
    diagnostics = engine.diagnostics()
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in engine.paths():
        by_name[PurePosixPath(path).name.casefold()].append(path)
    lines_cache: dict[str, list[str]] = {}

    def line_of(path: str, line: int | None) -> str:
        if line is None:
            return ""
        if path not in lines_cache:
            try:
                lines_cache[path] = engine.read_text(path).split("\n")
            except (OSError, ValueError):
                lines_cache[path] = []
        lines = lines_cache[path]
        return lines[line - 1] if 0 < line <= len(lines) else ""

    issues = []
    for diag in diagnostics:
        kind = kind_of(diag)
        if kind is None:
            continue
        fix = _suggest(diag, line_of(diag.path, diag.line), by_name)
        issues.append(
            CompatIssue(
                diag.path, diag.line, kind, diag.code, diag.message, fix, kind in SAFE_FIX_KINDS
            )
        )
    return CompatReport(tuple(issues))


def _quote_value_fix(source_line: str) -> str | None:
    key, sep, rest = source_line.partition(":")
    if not sep:
        return None
    value = rest.split(" #", 1)[0].strip()
    if not value:
        return None
    return f"{key}: {quote_scalar(value, prefer=chr(34))}"


def _suggest(diag: Diagnostic, source_line: str, by_name: dict[str, list[str]]) -> str | None:
    code = diag.code
    if code in (Code.NAME_NOT_STRING, Code.DESCRIPTION_NOT_STRING):
        fixed = _quote_value_fix(source_line)
        return f"quote it: {fixed}" if fixed else "quote the value"
    if code == Code.YAML_INVALID:
        return f"fix the YAML near line {diag.line}" if diag.line else "fix the YAML"
    if code == Code.BOM:
        return "save the file without the byte-order mark"
    if code in (Code.FRONTMATTER_NOT_MAPPING, Code.FRONTMATTER_BAD_KEY):
        return "make the frontmatter a mapping of text keys"
    if code == Code.TAGS_NOT_LIST:
        key, _, rest = source_line.partition(":")
        value = rest.split(" #", 1)[0].strip()
        return f"make it a list: {key}: [{value}]" if value else "make it a list"
    if code in (Code.TAG_INVALID, Code.TAG_TOO_LONG):
        return "remove the tag (ReMe never indexes it)"
    if code == Code.TAG_OVER_LIMIT:
        return f"keep at most {MAX_TAGS_PER_FILE} tags: put the ones that matter first"
    if code == Code.LINK_DANGLING:
        target = diag.message.split("]]", 1)[0].removeprefix("[[")
        matches = by_name.get(PurePosixPath(target).name.casefold(), [])
        if len(matches) == 1:
            return f"link to [[{matches[0]}]]"
        return "create that memory or correct the link"
    if code == Code.NO_TAGS:
        return "add memory_tags: [...]"
    return None
