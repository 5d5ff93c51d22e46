"""The list of MPI functions in mpilite/include/mpisim_functions.h, for the scripts that generate
code and documentation from it (gen-mpi-interface, mpi-coverage)."""

import dataclasses
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
FUNCTIONS_H = ROOT / "mpilite" / "include" / "mpisim_functions.h"

# The chapters of the MPI-3.1 standard that define C functions, by number.
CHAPTERS = {
    3: "Point-to-Point Communication",
    4: "Datatypes",
    5: "Collective Communication",
    6: "Groups, Contexts, Communicators, and Caching",
    7: "Process Topologies",
    8: "MPI Environmental Management",
    9: "The Info Object",
    10: "Process Creation and Management",
    11: "One-Sided Communications",
    12: "External Interfaces",
    13: "I/O",
    14: "Tool Support",
    15: "Deprecated Functions",
    17: "Language Bindings",
}

# Comment lines of mpisim_functions.h that open a chapter, and the one that ends the generated
# part (declarations below it were added by hand and are kept when the file is regenerated).
CHAPTER_COMMENT = "/* ---- Chapter {number}: {title} ---- */"
CHAPTER_RE = re.compile(r"/\* ---- Chapter (\d+): .* ---- \*/")
HAND_MARKER = (
    "/* ---- Not generated: declarations added by hand, kept by scripts/gen-mpi-interface ---- */"
)


@dataclasses.dataclass
class Function:
    ret: str  # return type
    name: str  # without the MPI_ prefix
    params: str  # parameter list with its parentheses
    chapter: int | None  # None: below HAND_MARKER (not part of the MPI-3.1 list)

    @property
    def mpi_name(self):
        return "MPI_" + self.name

    def declaration(self):
        return f"MPISIM_DECLARE({self.ret}, {self.name}, {self.params})"

    def argument_names(self):
        """The names of the parameters, in order ('...' of a variadic function left out)."""
        inner = self.params.strip()[1:-1].strip()
        if inner in ("", "void"):
            return []
        names = []
        for i, param in enumerate(split_top_level(inner)):
            if param == "...":
                continue
            words = re.findall(r"[A-Za-z_]\w*", re.sub(r"\[[^\]]*\]", "", param))
            if len(words) < 2 or words[-1] in ("const", "int", "char", "void", "double", "long"):
                raise ValueError(
                    f"{self.mpi_name}: parameter {i + 1} ({param!r}) has no name; every "
                    "parameter in mpisim_functions.h needs one (the fallbacks forward by name)"
                )
            names.append(words[-1])
        return names


def split_top_level(text, sep=","):
    """Splits `text` at `sep` outside parentheses and brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def strip_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)


def parse(path=FUNCTIONS_H):
    """The functions declared in `path`, in order, with the chapter each was listed under.
    A function declared twice (a hand-written block repeating a generated declaration) is
    listed once, and must have the same return type both times."""
    text = path.read_text()
    functions, seen = [], {}
    chapter = None
    pos = 0
    # Walk the file keeping track of the chapter comments and the hand-written marker.
    token = re.compile(r"/\*.*?\*/|//[^\n]*|MPISIM_DECLARE\s*\(", re.S)
    while True:
        m = token.search(text, pos)
        if not m:
            break
        if not m.group(0).startswith("MPISIM"):
            c = CHAPTER_RE.fullmatch(m.group(0))
            if c:
                chapter = int(c.group(1))
            elif m.group(0) == HAND_MARKER:
                chapter = None
            pos = m.end()
            continue
        depth, i = 1, m.end()
        while depth:
            if i >= len(text):
                raise ValueError(f"{path}: unbalanced parentheses after offset {m.start()}")
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        body = strip_comments(text[m.end() : i - 1])
        ret, name, params = (" ".join(p.split()) for p in split_top_level(body))
        pos = i
        if name in seen:
            if seen[name].ret != ret:
                raise ValueError(f"{path}: MPI_{name} is declared twice with different return types")
            continue
        seen[name] = Function(ret, name, params, chapter)
        functions.append(seen[name])
    return functions
