"""Writing a generator's output folder (shared by scripts/generate-*.py).

A generator renders every file it owns in memory (`{relative path: text}`); `sync` makes the
folder hold exactly those: it writes only the files whose text changed, so a regeneration that
changes nothing leaves every file (and its modification time) alone and the next build compiles
nothing again, and removes the `.swift` files it no longer produces. `stale` is the `--check`
side: the files `sync` would touch.

Stdlib only.
"""

import os


def existing(out_dir, suffix=".swift"):
    """The relative paths of the files ending in `suffix` under `out_dir` (none if it is missing)."""
    found = set()
    if os.path.isdir(out_dir):
        for folder, _, names in os.walk(out_dir):
            for name in names:
                if name.endswith(suffix):
                    found.add(os.path.relpath(os.path.join(folder, name), out_dir))
    return found


def current_text(path):
    """The text of `path`, or None when it does not exist."""
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except FileNotFoundError:
        return None


def stale(out_dir, files):
    """The relative paths `sync(out_dir, files)` would write or remove, sorted."""
    changed = [name for name, text in files.items() if current_text(os.path.join(out_dir, name)) != text]
    return sorted(changed + list(existing(out_dir) - set(files)))


def sync(out_dir, files):
    """Makes `out_dir` hold exactly `files`: writes those whose text differs, removes the other
    `.swift` files and the folders left empty. Returns (written, removed) relative paths."""
    os.makedirs(out_dir, exist_ok=True)
    removed = sorted(existing(out_dir) - set(files))
    for name in removed:
        os.remove(os.path.join(out_dir, name))
    for folder, _, _ in sorted(os.walk(out_dir), reverse=True):
        if folder != out_dir and not os.listdir(folder):
            os.rmdir(folder)
    written = []
    for name, text in sorted(files.items()):
        path = os.path.join(out_dir, name)
        if current_text(path) == text:
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        written.append(name)
    return written, removed
