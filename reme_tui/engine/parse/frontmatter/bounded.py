"""YAML safe loading with a budget: nothing larger than the budget is ever built (issue 23).

Frontmatter is hostile input. PyYAML shares an alias's node instead of copying it, so a
"billion laughs" block loads in microseconds, and every later walk (tag normalization,
``repr`` in a message, the saved index, a diff's JSON) pays for the expanded structure:
the whole workspace died at ~3 GB. Deep nesting breaks differently: PyYAML's composer
recurses (RecursionError, not a YAMLError) and libyaml stops at 1,000 levels.

So the composer counts while it composes, from the parser's events: every node, every
alias *as the nodes and characters it stands for*, the depth reached (an alias's too), and
stops at the first step over the budget with ``FrontmatterTooComplex`` (a YAMLError, marked
at the offending node). Construction then runs on a structure known to be small; its
Python errors (``2026-13-45`` is a date regex match that ``datetime`` refuses, an integer
over 4,300 digits) become YAMLErrors too, so one bad value voids one file, never a run.

What ReMe 0.4.2.0 does with the same files (measured: `benchmarks/peer_reme.py cold` on a
workspace of one good memory and one hostile one, under ``prlimit --as=3GB``, 2026-12-02):

* alias bomb (9 levels of 9) under ``name``: loads fine; ``name`` is not a string, so
  pydantic voids the frontmatter; 126 MB, 4 s.
* the same bomb under ``memory_tags``, a tag item, a side key (40 levels of 2), or merged
  with ``<<: *big``: the whole index job aborts (SIGABRT from a Rust panic) at 1.9-2.3 GB
  after 17-39 s; no memory is searchable.
* ``[[[...]]]`` 100,000 deep, 5,000-deep flow maps, 2,000-deep block maps: RecursionError
  for that file; it is not indexed at all (body included), the others are, the job
  reports failure. 400 levels load fine.
* ``2026-13-45`` as a value, a 5,000-digit integer: ValueError; that file is not indexed
  at all, the others are.
* ``"\ud800"``: loads (a lone surrogate in the string).

reme-tui instead ignores such a frontmatter block as a whole, like invalid YAML, and
indexes the body: ``frontmatter-too-complex`` for the budget, ``yaml-invalid`` for a value
Python refuses. Lone surrogates become U+FFFD (they cannot be stored, printed or written
as UTF-8). The limits void blocks ReMe would read (depth 101-~490); none was ever seen in
a real workspace.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import yaml
from yaml.composer import Composer, ComposerError
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.events import AliasEvent, ScalarEvent

from .simple import load_simple

# Lone surrogates (from "\ud800" escapes) cannot be encoded as UTF-8: the saved index, the
# history, JSON output and the terminal would each fail on them.
_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


@dataclass(frozen=True, slots=True)
class YamlBudget:
    """How much one frontmatter block may expand to. Measured: the 76 frontmatter blocks of
    the two sample workspaces peak at 21 nodes, depth 3 and no alias; 10,000 one-word tags
    are 10,002 nodes; a block at the node limit costs ~1.6 s and ~36 MB once (2 shared
    cores, load ~1; both through libyaml, slower through the pure parser ``load_yaml``
    uses). The saved index, JSON and ``repr`` handle depth 100 with stack to spare
    (tests/engine/test_yaml_budget.py saves and reloads one)."""

    nodes: int = 100_000  # nodes in the expanded tree (an alias counts each time it is used)
    depth: int = 100  # nesting in the expanded tree (the top-level mapping is 1)
    alias_chars: int = 1_000_000  # scalar characters aliases repeat beyond the text itself


DEFAULT_BUDGET = YamlBudget()


class FrontmatterTooComplex(yaml.MarkedYAMLError):
    """The block would expand past the budget; ``problem`` says which limit, where."""


@dataclass(slots=True)
class _Weight:
    nodes: int
    chars: int
    height: int


class _BoundedComposer(Composer):
    """PyYAML's composer, counting against a budget (works over the C or the Python parser)."""

    if TYPE_CHECKING:  # provided by the parser the loader is assembled with

        def peek_event(self) -> Any: ...

        def get_event(self) -> Any: ...

    def _start_budget(self, budget: YamlBudget) -> None:
        self.anchors: dict[Any, yaml.Node] = {}
        self._budget = budget
        self._nodes = 0
        self._chars = 0
        self._alias_chars = 0
        self._depth = 0  # depth of the node being composed (0: none yet)
        self._deepest = 0
        self._weights: dict[str, _Weight] = {}

    def _too_complex(self, problem: str, mark: Any) -> FrontmatterTooComplex:
        return FrontmatterTooComplex(None, None, problem, mark)

    def _reach(self, nodes: int, depth: int, mark: Any) -> None:
        self._nodes += nodes
        if self._nodes > self._budget.nodes:
            raise self._too_complex(f"expands to over {self._budget.nodes:,} values", mark)
        if depth > self._budget.depth:
            raise self._too_complex(f"nests deeper than {self._budget.depth} levels", mark)
        self._deepest = max(self._deepest, depth)

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event = self.peek_event()
        depth = self._depth + 1
        if isinstance(event, AliasEvent):
            return self._expand_alias(event, depth)
        anchor = getattr(event, "anchor", None)
        start_nodes, start_chars, outer_deepest = self._nodes, self._chars, self._deepest
        self._deepest = depth
        self._reach(1, depth, event.start_mark)
        if isinstance(event, ScalarEvent):
            self._chars += len(event.value)
        self._depth = depth
        try:
            node = super().compose_node(parent, index)
        finally:
            self._depth = depth - 1
        height = self._deepest - depth + 1
        self._deepest = max(outer_deepest, self._deepest)
        if anchor is not None:
            self._weights[anchor] = _Weight(
                self._nodes - start_nodes, self._chars - start_chars, height
            )
        if isinstance(node, yaml.ScalarNode) and _SURROGATE.search(node.value):
            node.value = _SURROGATE.sub(REPLACEMENT, node.value)
        return node

    def _expand_alias(self, event: AliasEvent, depth: int) -> yaml.Node:
        self.get_event()
        anchor = str(event.anchor)
        mark: Any = event.start_mark
        if anchor not in self.anchors:
            raise ComposerError(None, None, f"found undefined alias {anchor!r}", mark)
        weight = self._weights.get(anchor)
        if weight is None:  # the anchored node is still open: the alias is inside it
            raise self._too_complex(
                f"the alias *{anchor} is inside its own anchor (an endless structure)", mark
            )
        self._reach(weight.nodes, depth + weight.height - 1, mark)
        self._chars += weight.chars
        self._alias_chars += weight.chars
        if self._alias_chars > self._budget.alias_chars:
            raise self._too_complex(
                f"aliases repeat over {self._budget.alias_chars:,} characters", mark
            )
        return self.anchors[anchor]


class _ValueErrorsAsYaml(SafeConstructor):
    """Constructor errors that are not YAMLErrors (dates out of range, 4,300+ digit
    integers, floats ``float()`` refuses) become ConstructorErrors marked at the value."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except (ValueError, OverflowError, TypeError) as exc:
            raise ConstructorError(
                None, None, f"{node.value!r:.60} cannot be read: {exc}", node.start_mark
            ) from None


class BoundedSafeLoader(_BoundedComposer, _ValueErrorsAsYaml, yaml.SafeLoader):
    """``yaml.SafeLoader`` (pure Python: the reference's parser, with node marks) within
    ``budget``; for callers that need the nodes, like the tag editor."""

    def __init__(self, stream: str, budget: YamlBudget = DEFAULT_BUDGET) -> None:
        yaml.SafeLoader.__init__(self, stream)
        self._start_budget(budget)


def _load_with(loader_class: type[Any], text: str, budget: YamlBudget) -> Any:
    loader = loader_class(text, budget)
    try:
        return loader.get_single_data()
    except RecursionError:
        # Only reachable when the caller's own stack is already deep: the budget's depth
        # keeps the composer's recursion far below the limit.
        raise FrontmatterTooComplex(None, None, "nests too deep to read", None) from None
    finally:
        loader.dispose()


def load_yaml(text: str, budget: YamlBudget = DEFAULT_BUDGET) -> Any:
    """``yaml.safe_load(text)`` within ``budget``: the same value, or a YAMLError.

    Always the pure-Python parser, ReMe's own: libyaml (~4x faster here) is not the same
    language. It accepts what the reference refuses (``[0?, z]`` is a list to libyaml and
    a ParserError to PyYAML's parser) and reads some tabs differently, so "libyaml first,
    the reference on error" indexed tags from frontmatter ReMe voids. Measured on 500
    generated blocks: 616 us a block here, 133 us through libyaml, 361 us for a plain
    unbounded ``yaml.safe_load``. The common simple block takes the exact fast path
    (`simple.load_simple`) instead.
    """
    simple = load_simple(text)
    if simple is not None:
        return simple
    return _load_with(BoundedSafeLoader, text, budget)
