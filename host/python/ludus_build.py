"""Build-time helper of `ludus build-bot`, run by the ordinary CPython that
hosts componentize-py (never inside a bot).

    ludus_build.py scan ROOT
        Parses every .py file under ROOT (without running any of it) and prints
        one JSON object: per file, the names it binds at the top level, every
        import with its line, whether a failing import is handled (inside
        `try: ... except ImportError`), and any syntax error. Imports under
        `if __name__ == "__main__":` are left out: Kaggle runs an agent's file
        with `exec` in an empty namespace, where that block never runs.

    ludus_build.py extract-helpers WHEEL DEST
        Copies the helper modules out of the kaggle-environments wheel into
        DEST, under their import paths.
"""

import ast
import json
import os
import sys
import zipfile

# The modules of kaggle-environments a Kaggle agent may use inside Ludus.
HELPERS = (
    "kaggle_environments/helpers.py",
    "kaggle_environments/envs/kore_fleets/helpers.py",
    "kaggle_environments/envs/halite/helpers.py",
)

# Handlers that catch a failed import.
IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


def catches_import_error(handler):
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(
        (isinstance(t, ast.Name) and t.id in IMPORT_ERRORS)
        or (isinstance(t, ast.Attribute) and t.attr in IMPORT_ERRORS)
        for t in types
    )


def is_main_guard(node):
    """`if __name__ == "__main__":`, either way round."""
    test = node.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    mains = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return bool(names and mains)


class Scanner(ast.NodeVisitor):
    def __init__(self):
        self.imports = []
        self.optional = 0

    def add(self, node, module, names, level):
        self.imports.append(
            {
                "module": module,
                "names": names,
                "level": level,
                "line": node.lineno,
                "optional": self.optional > 0,
            }
        )

    def visit_Import(self, node):
        for alias in node.names:
            self.add(node, alias.name, None, 0)

    def visit_ImportFrom(self, node):
        names = [a.name for a in node.names if a.name != "*"]
        self.add(node, node.module or "", names, node.level)

    def visit_Try(self, node):
        handled = any(catches_import_error(h) for h in node.handlers)
        self.optional += handled
        for stmt in node.body:
            self.visit(stmt)
        self.optional -= handled
        for part in (node.handlers, node.orelse, node.finalbody):
            for stmt in part:
                self.visit(stmt)

    visit_TryStar = visit_Try

    def visit_If(self, node):
        if is_main_guard(node):
            for stmt in node.orelse:
                self.visit(stmt)
            return
        self.generic_visit(node)


def top_level_names(tree):
    """Names the module binds at its top level (in `if`, `try` and `with`
    blocks too), in order, and whether any of them is a function or class."""
    names, defines_callable = [], False

    def bind(target):
        if isinstance(target, ast.Name):
            names.append(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for t in target.elts:
                bind(t)

    def walk(body):
        nonlocal defines_callable
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.append(node.name)
                defines_callable = True
            elif isinstance(node, ast.Assign):
                for t in node.targets:
                    bind(t)
                defines_callable |= isinstance(node.value, (ast.Lambda, ast.Call))
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                bind(node.target)
            elif isinstance(node, ast.Import):
                names.extend((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if a.name == "*":
                        defines_callable = True
                    else:
                        names.append(a.asname or a.name)
                        defines_callable = True
            elif isinstance(node, ast.If):
                if not is_main_guard(node):
                    walk(node.body)
                walk(node.orelse)
            elif isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try))):
                for part in (node.body, node.orelse, node.finalbody):
                    walk(part)
                for h in node.handlers:
                    walk(h.body)
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                walk(node.body)

    walk(tree.body)
    return names, defines_callable


def scan_file(path):
    with open(path, "rb") as f:
        source = f.read()
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as e:
        return {"syntax_error": {"line": e.lineno or 0, "message": e.msg}}
    except ValueError as e:  # e.g. a NUL byte
        return {"syntax_error": {"line": 0, "message": str(e)}}
    scanner = Scanner()
    scanner.visit(tree)
    names, defines_callable = top_level_names(tree)
    stdlib = sys.stdlib_module_names
    for imp in scanner.imports:
        imp["stdlib"] = imp["level"] == 0 and imp["module"].split(".")[0] in stdlib
    return {"names": names, "defines_callable": defines_callable, "imports": scanner.imports}


def scan(root):
    files = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".py"):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                files[rel] = scan_file(path)
    json.dump({"files": files}, sys.stdout)


def extract_helpers(wheel, dest):
    with zipfile.ZipFile(wheel) as z:
        for name in HELPERS:
            target = os.path.join(dest, *name.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with z.open(name) as src, open(target, "wb") as out:
                out.write(src.read())


def main():
    command, *args = sys.argv[1:]
    if command == "scan":
        scan(*args)
    elif command == "extract-helpers":
        extract_helpers(*args)
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
