"""Shell completion from the table: `reme-tui completion bash|zsh|fish` prints a small script
that asks `reme-tui __complete -- WORD... CURRENT` what may come next (commands, flags, a
flag's choices, tags and memory paths from the saved index, or "complete a directory /
file" as `:dirs` / `:files`). Every decision is made here, once, for the three shells."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reme_tui.cli.common import EXIT_OK
from reme_tui.cli.table import COMMANDS, MODES, Flag, Mode

DIRS, FILES = ":dirs", ":files"
# What a flag's or a positional's value is, by dest.
TAG_VALUES = frozenset({"tag", "exclude_tag", "add", "remove", "set", "into", "merge_tags"})
PATH_VALUES = frozenset({"path", "path_prefix", "explain", "suggest_tags", "revert"})
DIR_VALUES = frozenset({"workspace", "workspace_option", "daily_dir", "digest_dir", "model"})
FILE_VALUES = frozenset({"reme_config", "config"})

BASH = r"""# reme-tui completion for bash: eval "$(reme-tui completion bash)" in ~/.bashrc
_reme_tui() {
    local cur=${COMP_WORDS[COMP_CWORD]} out
    out=$("${COMP_WORDS[0]}" __complete -- "${COMP_WORDS[@]:1:COMP_CWORD-1}" "$cur" 2>/dev/null)
    COMPREPLY=()
    case $out in
        :dirs) mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
        :files) mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
        ?*) mapfile -t COMPREPLY <<< "$out" ;;
    esac
}
complete -o filenames -F _reme_tui reme-tui
"""

ZSH = r"""#compdef reme-tui
# reme-tui completion for zsh: reme-tui completion zsh > "${fpath[1]}/_reme-tui"
_reme_tui() {
    local -a out
    out=("${(@f)$(${words[1]} __complete -- "${(@)words[2,CURRENT]}" 2>/dev/null)}")
    case $out[1] in
        :dirs) _path_files -/ ;;
        :files) _files ;;
        *) (( ${#out[1]} )) && compadd -Q -- "${out[@]}" ;;
    esac
}
compdef _reme_tui reme-tui
"""

FISH = r"""# reme-tui completion for fish:
#   reme-tui completion fish > ~/.config/fish/completions/reme-tui.fish
function __reme_tui_complete
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    set -l out ($tokens[1] __complete -- $tokens[2..-1] $current 2>/dev/null)
    switch "$out[1]"
        case :dirs
            __fish_complete_directories $current
        case :files
            __fish_complete_path $current
        case '*'
            printf '%s\n' $out
    end
end
complete -c reme-tui -f -a '(__reme_tui_complete)'
"""

SCRIPTS = {"bash": BASH, "zsh": ZSH, "fish": FISH}


def run_completion(args: argparse.Namespace) -> int:
    sys.stdout.write(SCRIPTS[args.shell])
    return EXIT_OK


def run_complete(args: argparse.Namespace) -> int:
    """The hidden `__complete`: one candidate a line (already filtered by the prefix)."""
    *words, current = args.words or [""]
    for candidate in candidates(words, current):
        sys.stdout.write(candidate + "\n")
    return EXIT_OK


@dataclass(slots=True)
class Line:
    """What the words before the cursor say: the command, what the cursor's word is."""

    mode: Mode
    positionals: list[str] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)  # dest -> last value given
    pending: Flag | None = None  # the option whose value is being typed


def candidates(words: Sequence[str], current: str) -> list[str]:
    if not words and not current.startswith("-"):
        # The first word: a command, else a workspace folder for the app.
        commands = [m.command for m in visible_modes() if m.command.startswith(current)]
        return commands or [DIRS]
    line = read_line(words)
    if line.pending is not None:
        return _values(line.pending, line, current)
    if current.startswith("-"):
        return [name for name in option_names(line.mode) if name.startswith(current)]
    return _values(_next_positional(line), line, current)


def visible_modes() -> list[Mode]:
    return [m for m in MODES if not m.hidden]


def option_names(mode: Mode) -> list[str]:
    names = [n for f in all_options(mode) for n in f.names if n.startswith("--") or n == "-0"]
    return [*names, "--help", *(["--workspace"] if mode.workspace != "none" else [])]


def all_options(mode: Mode) -> list[Flag]:
    return [*(a for a in mode.arguments if not a.positional), *mode.options]


def read_line(words: Sequence[str]) -> Line:
    """Walk the words as the command's parser would (closely enough to complete)."""
    if words and words[0] in COMMANDS:
        line, rest = Line(COMMANDS[words[0]]), list(words[1:])
    else:
        line, rest = Line(COMMANDS["app"]), list(words)
    by_name = {n: f for f in all_options(line.mode) for n in f.names}
    by_name["-w"] = by_name["--workspace"] = Flag(("--workspace",), "", {"dest": "workspace"})
    taking: Flag | None = None
    for word in rest:
        if word in by_name:
            taking = by_name[word] if by_name[word].takes_value else None
            continue
        if taking is not None:
            line.options[taking.dest] = word
            if taking.options.get("nargs") not in ("+", "*"):
                taking = None
            continue
        line.positionals.append(word)
    if taking is not None:
        line.pending = taking
    return line


def _next_positional(line: Line) -> Flag | None:
    own = [a for a in line.mode.arguments if a.positional]
    if own and own[-1].options.get("nargs") in ("+", "*"):
        return own[-1]  # merge TAG...: every positional is a tag
    if line.mode.workspace == "last":
        own.append(Flag(("workspace",), ""))
    index = len(line.positionals)
    return own[index] if index < len(own) else None


def _values(item: Flag | None, line: Line, current: str) -> list[str]:
    if item is None:
        return []
    choices = item.options.get("choices")
    if choices:
        return [c for c in choices if c.startswith(current)]
    if item.dest in DIR_VALUES:
        return [DIRS]
    if item.dest in FILE_VALUES:
        return [FILES]
    if item.dest in TAG_VALUES | PATH_VALUES:
        tags, paths = _from_saved_index(line)
        found = tags if item.dest in TAG_VALUES else paths
        return [value for value in found if value.startswith(current)]
    return []


def _from_saved_index(line: Line) -> tuple[list[str], list[str]]:
    """The tags and memory paths of the line's workspace, from its saved index (none yet:
    nothing; completion never builds an index from nothing, and never prints but its
    candidates). A saved index behind the files is brought up to date and saved, as any
    command would."""
    from reme_tui.engine import Engine, EngineConfig
    from reme_tui.engine.index import saved_index
    from reme_tui.engine.reme import choose_workspace

    own = sum(1 for a in line.mode.arguments if a.positional)
    given = line.options.get("workspace")
    if given is None and line.mode.workspace == "last" and len(line.positionals) > own:
        given = line.positionals[own]
    try:
        choice = choose_workspace(given)
        root = Path(choice.root)
        store = saved_index(root.resolve(), all_markdown=False)
        if store is None or not store.path.is_file():
            return [], []
        engine = Engine.create(root, EngineConfig(layout=choice.layout))
        engine.attach_store(store)
        engine.build()
    except Exception:  # a completion never fails the shell
        return [], []
    return [tag for tag, _count in engine.list_tags("tag", "asc")], sorted(engine.paths())
