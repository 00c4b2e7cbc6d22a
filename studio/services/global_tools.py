"""Global tools: a function from a REPL session promoted to a named, versioned record that every
new session can import (`from macaron_tools import <name>`, services/tool_library.py) and the
tool loop lists to the model (`global_tool_docs`).

Versions work the way the adapter registry's do (services/adapters.py): promoting a name again
adds a version and makes it the active one (the old one stays, inactive), demoting leaves the
name with no active version, and rows are never deleted. A name belongs to the author of its
active version; a name with none is anyone's to take.

Promotion trusts nothing the session says about itself: the `def` is read from the owner's
session, checked here (one plain, undecorated function with literal defaults, so importing the
module can run none of its code), then run with its tests in a fresh sandbox; only what passed
there is stored. Signature and docstring are read from that same source.
"""

from __future__ import annotations

import ast
import builtins
import json
import keyword
import re
import textwrap
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max

from inference.tool_calls import GlobalToolDoc
from studio.errors import Conflict, InvalidRequest, NotFound, TooLarge, Unprocessable
from studio.models import GlobalTool
from studio.repl.cells import CellResult
from studio.services.repl import repl_execute_server_code, repl_run_throwaway
from studio.services.tool_library import OWN_NAMES

NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
# Names the sandbox's IPython puts in a session beside Python's builtins.
IPYTHON_NAMES = frozenset({"display", "get_ipython", "In", "Out", "exit", "quit"})
PROMOTION_OWNER = "system:promotion"  # the fresh sessions promotions run in
STORED_OUTPUT_CHARS = 8000
SHOWN_OUTPUT_CHARS = 2000
MAX_SIGNATURE_CHARS = 1000
VERSIONS_SHOWN = 50

# Runs in the owner's session, in a namespace of its own (nothing is left in theirs), and
# prints one JSON line: the function's source, or why there is none to promote.
DESCRIBE = """
import inspect, json, types
def describe(target, name, limit):
    if target is None:
        return {"problem": "missing"}
    if not isinstance(target, types.FunctionType):
        return {"problem": "not_function", "type": type(target).__name__[:100]}
    if target.__qualname__ != name:
        return {"problem": "renamed", "defined_as": str(target.__qualname__)[:100]}
    if target.__module__ != "__main__":
        return {"problem": "imported", "module": str(target.__module__)[:100]}
    try:
        source = inspect.getsource(target)
    except (OSError, TypeError):
        return {"problem": "no_source"}
    size = len(source.encode())
    if size > limit:
        return {"problem": "too_large", "size": size}
    return {"source": source}
print(json.dumps(describe(target, name, limit), ensure_ascii=False))
"""


class ToolTestsFailed(Unprocessable):
    """The tests failed in the fresh sandbox: nothing was stored. `output` is what they printed
    (the tool loop hands it back to the model)."""

    def __init__(self, code: str, message: str, *, output: str) -> None:
        super().__init__(code, message, param="tests")
        self.output = output


def global_tool_promote(*, owner: str, session_id: str, name: str, tests: str) -> dict[str, Any]:
    """Promote the function `name` defined in the owner's session, once `tests` (Python with
    asserts that call it; any `test_*` functions it defines are called too) pass in a fresh
    sandbox. It becomes the active version of `name`. Raises InvalidRequest subclasses: 400 for
    a bad name or tests, 404 for a session that is not the owner's, 409 when another author
    holds the name, 413 for tests or source over the cell limit, 422 (ToolTestsFailed) when
    the tests fail; nothing is stored then."""
    for param, value in (("session_id", session_id), ("name", name), ("tests", tests)):
        if not isinstance(value, str):  # the tool loop passes what a model wrote
            raise InvalidRequest("invalid_value", f"'{param}' must be a string.", param=param)
    _check_name(name)
    test_functions = _check_tests(name, tests)
    _check_holder(name, owner)
    source = _source_in_session(owner, session_id, name)
    function = _function_of(name, source)
    signature = _signature(function)
    output = _run_tests(name, source, tests, test_functions)
    record = _store(
        name=name,
        author=owner,
        source=source,
        signature=signature,
        doc=ast.get_docstring(function) or "",
        tests=tests,
        output=output,
    )
    return {**_public(record, owner=owner), "test_output": record.test_output}


def global_tool_activate(*, owner: str, name: str, version: int) -> dict[str, Any]:
    """Make one of the owner's versions of `name` the active one (a rollback, or back after a
    demotion). Another author's version, or a name another author holds, is refused (409)."""
    with transaction.atomic():
        target = GlobalTool.objects.select_for_update().filter(name=name, version=version).first()
        if target is None:
            raise NotFound(
                "tool_version_not_found",
                f"The tool {name[:70]!r} has no version {version}.",
                param="version",
            )
        current = _active_for_update(name)
        _refuse_other_holder(current, owner, name)
        if target.author != owner:
            raise Conflict(
                "tool_name_taken",
                f"Version {version} of {name!r} was promoted by another author: only its "
                "author can activate it. Promote your own version instead.",
                param="version",
            )
        if current is None:
            _check_room()
        elif current.pk != target.pk:
            GlobalTool.objects.filter(pk=current.pk).update(active=False)
        GlobalTool.objects.filter(pk=target.pk).update(active=True)
        target.active = True
    return _public(target, owner=owner)


def global_tool_demote(*, name: str, owner: str | None) -> dict[str, Any]:
    """Leave `name` with no active version: new sessions cannot import it, the model is no
    longer told of it; its versions stay. Only the active version's author may (`owner` None:
    an operator, from the admin)."""
    with transaction.atomic():
        current = _active_for_update(name)
        if current is None:
            raise NotFound("tool_not_found", f"No active tool is named {name[:70]!r}.")
        if owner is not None:
            _refuse_other_holder(current, owner, name)
        GlobalTool.objects.filter(pk=current.pk).update(active=False)
        current.active = False
    return _public(current, owner=owner)


def global_tools_list(*, owner: str) -> list[dict[str, Any]]:
    """The active tools, by name."""
    active = GlobalTool.objects.filter(active=True).order_by("name")
    return [_public(tool, owner=owner) for tool in active]


def global_tool_versions(*, owner: str, name: str) -> dict[str, Any]:
    """The newest VERSIONS_SHOWN versions of `name`, with their sources and tests."""
    versions = list(GlobalTool.objects.filter(name=name).order_by("-version")[: VERSIONS_SHOWN + 1])
    if not versions:
        raise NotFound("tool_not_found", f"No tool is named {name[:70]!r}.")
    data = [
        {**_public(tool, owner=owner), "source": tool.source, "tests": tool.tests}
        for tool in versions[:VERSIONS_SHOWN]
    ]
    return {"object": "list", "name": name, "data": data, "has_more": len(versions) > len(data)}


def global_tool_docs() -> tuple[GlobalToolDoc, ...]:
    """The active tools as the tool loop's system message lists them (tools_system_text)."""
    active = GlobalTool.objects.filter(active=True).order_by("name")
    return tuple(GlobalToolDoc(tool.name, tool.signature, tool.doc) for tool in active)


# -- the checks ---------------------------------------------------------------------------


def _check_name(name: str) -> None:
    if not NAME.match(name):
        raise InvalidRequest(
            "invalid_tool_name",
            f"{name[:70]!r} is not a tool name: a Python identifier of letters, digits and "
            "'_', starting with a letter, at most 64 characters.",
            param="name",
        )
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        taken = "a Python keyword"
    elif hasattr(builtins, name) or name in IPYTHON_NAMES:
        taken = "a Python builtin"
    elif name in OWN_NAMES:
        taken = "a name the macaron_tools module uses itself"
    else:
        return
    raise InvalidRequest(
        "reserved_tool_name", f"{name!r} is {taken}; choose another name.", param="name"
    )


def _check_tests(name: str, tests: str) -> list[str]:
    """The `test_*` functions the tests define (called after them); refusals for tests that
    are too big, do not parse, never call the tool, assert nothing or rebind its name."""
    _check_size("tests", len(tests.encode()), param="tests")
    try:
        tree = ast.parse(tests)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise InvalidRequest(
            "invalid_tests", f"The tests are not valid Python: {exc}", param="tests"
        ) from None
    nodes = list(ast.walk(tree))
    calls = any(isinstance(n, ast.Name) and n.id == name for n in nodes)
    asserts = any(isinstance(n, ast.Assert) for n in nodes)
    if not (calls and asserts):
        raise InvalidRequest(
            "invalid_tests",
            f"The tests must call {name} and check what it returns with `assert`.",
            param="tests",
        )
    if any(_binds(node, name) for node in nodes):
        raise InvalidRequest(
            "invalid_tests",
            f"The tests must test the session's {name}, not define or import their own.",
            param="tests",
        )
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    ]


def _binds(node: ast.AST, name: str) -> bool:
    if isinstance(node, ast.Name):
        return node.id == name and not isinstance(node.ctx, ast.Load)
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name == name
    if isinstance(node, ast.alias):
        return (node.asname or node.name.split(".")[0]) == name
    return False


def _check_size(what: str, size: int, *, param: str) -> None:
    limit = settings.MACARON_REPL_CODE_MAX_BYTES
    if size > limit:
        raise TooLarge(
            f"{what}_too_large",
            f"The tool's {what} is {size} bytes, over the {limit} bytes a cell takes; "
            "nothing was promoted.",
            param=param,
        )


def _check_holder(name: str, owner: str) -> None:
    current = GlobalTool.objects.filter(name=name, active=True).first()
    _refuse_other_holder(current, owner, name)
    if current is None:
        _check_room()


def _refuse_other_holder(current: GlobalTool | None, owner: str, name: str) -> None:
    if current is not None and current.author != owner:
        raise Conflict(
            "tool_name_taken",
            f"The global tool {name!r} belongs to another author; choose another name.",
            param="name",
        )


def _check_room() -> None:
    limit = settings.MACARON_TOOLS_MAX_ACTIVE
    if GlobalTool.objects.filter(active=True).count() >= limit:
        raise InvalidRequest(
            "too_many_tools",
            f"There are already {limit} active global tools, the most allowed; demote one "
            "(DELETE /v1/tools/<name>) first.",
            param="name",
        )


def _source_in_session(owner: str, session_id: str, name: str) -> str:
    limit = settings.MACARON_REPL_CODE_MAX_BYTES
    namespace = f"{{'target': globals().get({name!r}), 'name': {name!r}, 'limit': {limit}}}"
    code = f"exec({DESCRIBE!r}, {namespace})"
    ran = repl_execute_server_code(owner=owner, session_id=session_id, code=code)
    try:
        said = json.loads(ran["stdout"].strip().splitlines()[-1])
    except (ValueError, IndexError):
        said = {"problem": "unreadable"}
    if not isinstance(said, dict):
        said = {"problem": "unreadable"}
    problem = said.get("problem")
    if problem is None and isinstance(said.get("source"), str):
        source: str = said["source"]
        _check_size("source", len(source.encode()), param="name")
        return source
    if problem == "too_large":
        size = said.get("size")
        _check_size("source", size if isinstance(size, int) else limit + 1, param="name")
    reasons = {
        "missing": f"No function named {name} is defined in this session.",
        "not_function": f"{name} in this session is a {said.get('type')}, not a function.",
        "renamed": f"{name} in this session is the function {said.get('defined_as')}: promote "
        "a function under the name it was defined with, at the top level.",
        "imported": f"{name} in this session comes from the module {said.get('module')}: only "
        "functions defined in the session can be promoted.",
        "no_source": f"The source of {name} cannot be read in this session; define it again "
        "in a cell of its own.",
    }
    message = reasons.get(str(problem), f"The function {name} could not be read from the session.")
    raise InvalidRequest("invalid_tool_function", message, param="name")


def _function_of(name: str, source: str) -> ast.FunctionDef:
    """The one plain `def` the source must be. Defaults must be literals and annotations are
    left unevaluated, so that importing macaron_tools runs nothing a tool wrote."""
    try:
        tree = ast.parse(textwrap.dedent(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        tree = ast.Module(body=[], type_ignores=[])
    function = tree.body[0] if len(tree.body) == 1 else None
    if not isinstance(function, ast.FunctionDef) or function.name != name:
        raise _unfit(name, "its source is not one plain `def` (an async function?)")
    if function.decorator_list:
        raise _unfit(name, "it is decorated; promote the plain function")
    arguments = function.args
    for default in [*arguments.defaults, *arguments.kw_defaults]:
        if default is not None and not _literal(default):
            raise _unfit(name, "its default values must be literals (numbers, strings, None…)")
    return function


def _literal(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return False
    return True


def _unfit(name: str, why: str) -> InvalidRequest:
    return InvalidRequest(
        "invalid_tool_function", f"{name} cannot be promoted: {why}.", param="name"
    )


def _signature(function: ast.FunctionDef) -> str:
    returns = f" -> {ast.unparse(function.returns)}" if function.returns else ""
    signature = f"({ast.unparse(function.args)}){returns}"
    if len(signature) > MAX_SIGNATURE_CHARS:
        raise _unfit(function.name, f"its signature is over {MAX_SIGNATURE_CHARS} characters")
    return signature


def _run_tests(name: str, source: str, tests: str, test_functions: list[str]) -> str:
    """Run the source, then the tests, in a fresh sandbox (a new session holding only the
    current macaron_tools); what they printed. Raises ToolTestsFailed."""
    calls = "".join(f"\n{test}()" for test in test_functions)
    cells = [f"from __future__ import annotations\n{textwrap.dedent(source)}", tests + "\n" + calls]
    results = repl_run_throwaway(owner=PROMOTION_OWNER, cells=cells)
    output = _output(results)
    failed = next((cell for cell in results if _failed(cell)), None)
    if failed is None and len(results) == len(cells):
        return output[-STORED_OUTPUT_CHARS:]
    shown = output[-SHOWN_OUTPUT_CHARS:]
    if failed is results[0]:
        message = f"The source of {name} does not run on its own in a fresh session"
    else:
        message = f"The tests of {name} failed in a fresh session"
    hint = ""
    if failed is not None and failed.error and failed.error.get("name") == "NameError":
        hint = (
            " A promoted function sees only its own source: import what it needs inside it "
            "(other tools too, with `from macaron_tools import ...`)."
        )
    raise ToolTestsFailed(
        "tool_tests_failed",
        f"{message}, so nothing was promoted.{hint} Their output:\n{shown}",
        output=shown,
    )


def _failed(cell: CellResult) -> bool:
    return bool(cell.error or cell.timed_out or cell.kernel_lost)


def _output(results: list[CellResult]) -> str:
    parts = []
    for cell in results:
        parts += [cell.stdout, cell.stderr]
        if cell.error:
            parts.append(cell.error.get("traceback") or f"{cell.error.get('name')}")
        parts += [note + "\n" for note in cell.notes]
    return "".join(part if part.endswith("\n") else part + "\n" for part in parts if part)


def _store(
    *, name: str, author: str, source: str, signature: str, doc: str, tests: str, output: str
) -> GlobalTool:
    for attempt in range(3):
        try:
            with transaction.atomic():
                current = _active_for_update(name)
                _refuse_other_holder(current, author, name)
                if current is None:
                    _check_room()
                else:
                    GlobalTool.objects.filter(pk=current.pk).update(active=False)
                highest = GlobalTool.objects.filter(name=name).aggregate(v=Max("version"))["v"]
                return GlobalTool.objects.create(
                    name=name,
                    version=int(highest or 0) + 1,
                    source=source,
                    signature=signature,
                    doc=doc,
                    tests=tests,
                    test_output=output,
                    author=author,
                    active=True,
                )
        except IntegrityError:  # promoted at the same moment by someone else: look again
            if attempt == 2:
                raise Conflict(
                    "tool_name_busy",
                    f"{name!r} was being promoted by someone else at the same time; nothing "
                    "was stored. Try again.",
                    param="name",
                ) from None
    raise AssertionError("unreachable")


def _active_for_update(name: str) -> GlobalTool | None:
    return GlobalTool.objects.select_for_update().filter(name=name, active=True).first()


def _public(tool: GlobalTool, *, owner: str | None) -> dict[str, Any]:
    return {
        "object": "tool",
        "name": tool.name,
        "version": tool.version,
        "active": tool.active,
        "signature": tool.signature,
        "doc": tool.doc,
        "author_is_you": owner is not None and tool.author == owner,
        "created_at": int(tool.created_at.timestamp()),
    }
