"""Which files are memories and how they are read and written: the workspace scan and its
safe paths, symlinks, the one bounded read and the one atomic rewrite (fileio), file-event
batches (watch), and the per-workspace user-data folder."""

from typing import TYPE_CHECKING

from ..lazy_face import lazy_getattr
from .fileio import (
    ConflictError,
    FileStamp,
    FileTooLarge,
    NotRegularFile,
    OutsideWorkspace,
    PathRefused,
    ReadOnlyFile,
    Rewrite,
    Roots,
    atomic_write,
    create_memory,
    ensure_private_dir,
    is_stale_temp,
    read_memory,
    read_memory_bytes,
    read_regular,
    remove_memory,
    replace_memory,
    rewrite_memory,
)
from .symlinks import LinkMap
from .userdata import (
    CorruptFile,
    read_json,
    read_json_checked,
    shown_path,
    workspace_data_dir,
    workspace_key,
    write_json,
)
from .workspace import (
    MEMORY_ROOTS,
    FoundFile,
    PathOutsideWorkspace,
    date_from_path,
    is_memory_path,
    resolve_inside,
    resolves_inside,
    scan,
    to_relative,
)

__all__ = [
    "MEMORY_ROOTS",
    "ConflictError",
    "CorruptFile",
    "FileStamp",
    "FileTooLarge",
    "FoundFile",
    "LinkMap",
    "NotRegularFile",
    "OutsideWorkspace",
    "PathOutsideWorkspace",
    "PathRefused",
    "ReadOnlyFile",
    "Rewrite",
    "Roots",
    "atomic_write",
    "awatch_batches",
    "create_memory",
    "date_from_path",
    "ensure_private_dir",
    "is_memory_path",
    "is_stale_temp",
    "read_json",
    "read_json_checked",
    "read_memory",
    "read_memory_bytes",
    "read_regular",
    "remove_memory",
    "replace_memory",
    "resolve_inside",
    "resolves_inside",
    "rewrite_memory",
    "root_is_gone",
    "scan",
    "shown_path",
    "to_relative",
    "watch_batches",
    "workspace_data_dir",
    "workspace_key",
    "write_json",
]

# The watcher (watchfiles, anyio) loads when first asked for: a --query never watches.
_WHERE = {"awatch_batches": "watch", "root_is_gone": "watch", "watch_batches": "watch"}
__getattr__ = lazy_getattr(__name__, _WHERE, globals())

if TYPE_CHECKING:
    from .watch import awatch_batches, root_is_gone, watch_batches
