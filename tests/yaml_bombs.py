"""Hostile frontmatter texts (issue 23): alias bombs, deep nesting, merge-key bombs.

Each builder returns the YAML *between* the fences; ``memory_with`` wraps it into a whole
memory. Sizes are parameters so engine tests can trip small budgets cheaply while the
field test uses the real shapes from the issue.
"""

from __future__ import annotations


def alias_bomb(key: str, levels: int = 9, fanout: int = 9, *, leaf: str = "lol") -> str:
    """Billion laughs under ``key``: each level a list of ``fanout`` aliases of the one below
    (nine levels of nine: 9**9 leaves; forty levels of two: 2**40)."""
    lines = [f"a0: &a0 {leaf}"]
    for level in range(1, levels + 1):
        refs = ", ".join(f"*a{level - 1}" for _ in range(fanout))
        lines.append(f"a{level}: &a{level} [{refs}]")
    lines.append(f"{key}: *a{levels}")
    return "\n".join(lines)


def tag_item_bomb(levels: int = 9, fanout: int = 9) -> str:
    """The bomb as one item of ``memory_tags``."""
    return alias_bomb("x", levels, fanout) + f"\nmemory_tags: [ok, *a{levels}]"


def merge_bomb(levels: int = 9, fanout: int = 9) -> str:
    """``<<: *big`` where each level merges mappings holding the level below ``fanout`` times."""
    lines = ["m0: &m0 {k: lol}"]
    for level in range(1, levels + 1):
        pairs = ", ".join(f"k{i}: *m{level - 1}" for i in range(fanout))
        lines.append(f"m{level}: &m{level} {{{pairs}}}")
    lines.append(f"side:\n  <<: *m{levels}")
    return "\n".join(lines)


def deep_flow_list(depth: int) -> str:
    return "x: " + "[" * depth + "]" * depth


def deep_flow_map(depth: int) -> str:
    return "x: " + "{a: " * depth + "b" + "}" * depth


def deep_block_map(depth: int) -> str:
    return (
        "x:\n"
        + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(depth))
        + "  " * (depth + 1)
        + "leaf"
    )


def memory_with(yaml_text: str, body: str = "hello from a hostile memory\n") -> str:
    return f"---\n{yaml_text}\n---\n{body}"
