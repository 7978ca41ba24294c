"""Flutter widget trees read off the tree-sitter-dart syntax tree.

tree-sitter-dart writes a call as flat siblings (``identifier 'Text'`` then ``selector(argument_part)``), or as
``const_object_expression``/``new_expression``. This module turns those shapes into ``WidgetCall`` nodes with
their named arguments, the slot each child widget fills and whether a child hangs under control flow (collection
if/for, spreads, ``?:``, builder closures) — what question generators and requirement checks need to know.

Which capitalised calls are widgets is a vocabulary (``FLUTTER_WIDGETS`` plus the file's own widget classes);
anything else capitalised and unknown makes questions that depend on the classification ambiguous.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import tree_sitter

from coonbench.dart.parse import parse_dart
from coonbench.dart.query import node_text

FLUTTER_WIDGETS: frozenset[str] = frozenset(
    """
    AbsorbPointer Align AlertDialog AnimatedBuilder AnimatedContainer AnimatedCrossFade AnimatedOpacity
    AnimatedPositioned AnimatedSwitcher AppBar AspectRatio Autocomplete BackButton Badge Banner BottomAppBar
    BottomNavigationBar BottomSheet Builder ButtonBar Card Center Checkbox CheckboxListTile Chip ChoiceChip
    CircleAvatar CircularProgressIndicator ClipOval ClipPath ClipRRect CloseButton ColoredBox Column Container
    CupertinoButton CustomPaint CustomScrollView DataTable DecoratedBox DefaultTabController Dialog Directionality
    Dismissible Divider Drawer DrawerHeader DropdownButton DropdownButtonFormField DropdownMenuItem
    ElevatedButton ExpansionTile Expanded FilledButton FilterChip FittedBox Flexible FloatingActionButton Form
    FormField FractionallySizedBox FutureBuilder GestureDetector GridTile GridView Hero Icon IconButton Image
    IgnorePointer IndexedStack InkWell InputChip InteractiveViewer IntrinsicHeight IntrinsicWidth KeyedSubtree
    LayoutBuilder LimitedBox LinearProgressIndicator ListBody ListTile ListView ListWheelScrollView Material
    MaterialApp MediaQuery MouseRegion NavigationBar NavigationDestination NavigationRail Offstage Opacity
    OutlinedButton OverflowBox Padding PageView Placeholder PopupMenuButton PopupMenuItem Positioned
    PreferredSize RadioListTile Radio RefreshIndicator RichText Row SafeArea Scaffold Scrollbar SearchBar
    SegmentedButton SelectableText SimpleDialog SingleChildScrollView SizedBox SliverAppBar SliverList
    SliverGrid SliverToBoxAdapter SliverPadding SliverFillRemaining Slider SnackBar Spacer Stack StreamBuilder
    Switch SwitchListTile Tab TabBar TabBarView Table TableRow TextButton Text TextField TextFormField Theme
    Tooltip Transform ValueListenableBuilder Visibility Wrap WillPopScope PopScope Semantics VerticalDivider
    ReorderableListView Stepper Step ToggleButtons RotatedBox ConstrainedBox UnconstrainedBox Baseline
    ShaderMask BackdropFilter Flow Flex Listener Draggable DragTarget LongPressDraggable Ink InkResponse
    ScaffoldMessenger Navigator Overlay CupertinoPageScaffold CupertinoNavigationBar CupertinoSwitch
    AnimatedList AnimatedPadding AnimatedAlign AnimatedDefaultTextStyle DefaultTextStyle FadeTransition
    ScaleTransition SlideTransition SizeTransition RotationTransition TweenAnimationBuilder ListenableBuilder
    OrientationBuilder NestedScrollView SliverFixedExtentList ActionChip RawMaterialButton MaterialButton
    TimePickerDialog DatePickerDialog CalendarDatePicker CheckedPopupMenuItem MenuAnchor MenuItemButton
    SubmenuButton SearchAnchor FlexibleSpaceBar ButtonSegment
    """.split()
)
# Capitalised calls known not to be widgets (values passed to widgets).
FLUTTER_VALUES: frozenset[str] = frozenset(
    """
    EdgeInsets EdgeInsetsDirectional TextStyle BorderRadius Radius BoxDecoration ShapeDecoration InputDecoration
    Color Colors Duration MaterialPageRoute PageRouteBuilder Offset Size BoxConstraints Border BorderSide
    BoxShadow LinearGradient RadialGradient RoundedRectangleBorder CircleBorder StadiumBorder OutlineInputBorder
    UnderlineInputBorder TextEditingController ScrollController PageController TabController AnimationController
    GlobalKey ValueKey Key UniqueKey ObjectKey FocusNode ThemeData ColorScheme AppBarTheme TextTheme IconThemeData
    ButtonStyle DecorationImage NetworkImage AssetImage Alignment AlignmentDirectional FontWeight TextAlign
    MainAxisAlignment CrossAxisAlignment MainAxisSize Axis BoxFit Icons Matrix4 Curves Tween CurvedAnimation
    DateTime RegExp Uri Future Stream StreamController Timer List Map Set String Exception ArgumentError
    StateError FormatException DataColumn DataRow DataCell RouteSettings SnackBarAction BottomNavigationBarItem
    SliverGridDelegateWithFixedCrossAxisCount SliverChildBuilderDelegate TextSpan WidgetSpan Shadow
    FloatingActionButtonLocation NeverScrollableScrollPhysics BouncingScrollPhysics ClampingScrollPhysics
    AlwaysScrollableScrollPhysics TextInputType TextCapitalization Locale VisualDensity ElevatedButton.styleFrom
    ValueNotifier ChangeNotifier Provider Random StringBuffer Object Iterable Function Symbol Runes Record
    Paint Path
    """.split()
)
# Named constructors that build a widget (``ListView.builder``); any other ``X.m(...)`` is a method call.
WIDGET_CONSTRUCTORS: frozenset[str] = frozenset(
    "builder separated count extent network asset file memory icon shrink expand square fromSize tight "
    "filled outlined tonal adaptive large small extended rich filledTonal".split()
)
WIDGET_BASES: frozenset[str] = frozenset({"StatelessWidget", "StatefulWidget"})
_TYPE_DECLARATIONS = frozenset(
    {"class_definition", "enum_declaration", "mixin_declaration", "extension_declaration", "type_alias"}
)
_DYNAMIC_NODES = frozenset(
    {"if_element", "for_element", "spread_element", "conditional_expression", "function_expression"}
)


@dataclass
class WidgetCall:
    """One widget constructor call in the source."""

    name: str  # "Text", "ListView.builder"
    type_name: str  # "Text", "ListView"
    node: tree_sitter.Node  # the node holding the call (its first token is the type name)
    arguments: tree_sitter.Node  # the ``arguments`` node
    slot: str | None = None  # named argument of the parent this child fills (None: positional)
    in_list: bool = False  # a direct element of a list literal (``children: [...]``)
    dynamic: bool = False  # reached from its parent through control flow or a closure
    in_callback: bool = False  # inside an ``onX:`` callback (navigation targets, dialogs)
    parent: WidgetCall | None = None
    children: list[WidgetCall] = field(default_factory=list)
    callback_widgets: list[WidgetCall] = field(default_factory=list)  # built inside ``onX:`` callbacks
    list_node: tree_sitter.Node | None = None  # the list literal it sits in, when ``in_list``

    @property
    def line(self) -> int:
        return self.node.start_point[0] + 1

    def named_args(self) -> dict[str, tree_sitter.Node]:
        """Label → the first node of its value expression (the value's full text: ``arg_text``)."""
        out: dict[str, tree_sitter.Node] = {}
        for arg in self.arguments.named_children:
            if arg.type == "named_argument":
                label = arg.child_by_field_name("label") or arg.named_children[0]
                out[node_text(label.named_children[0])] = arg
        return out

    def positional_args(self) -> list[tree_sitter.Node]:
        return [a for a in self.arguments.named_children if a.type == "argument"]

    def walk(self, *, callbacks: bool = False) -> Iterator[WidgetCall]:
        """This widget and all widgets below it, depth first; with ``callbacks`` also those built in callbacks."""
        yield self
        below = self.children + self.callback_widgets if callbacks else self.children
        for child in sorted(below, key=lambda w: w.node.start_byte):
            yield from child.walk(callbacks=callbacks)

    def depth(self) -> int:
        """Levels of the subtree rooted here (a leaf has depth 1)."""
        return 1 + max((c.depth() for c in self.children), default=0)


@dataclass
class WidgetClass:
    """A class of the file and the widget calls made in its body."""

    name: str
    superclass: str | None
    node: tree_sitter.Node
    roots: list[WidgetCall]  # top-level widget calls (not inside another widget call)
    build_root: WidgetCall | None  # the single widget the build method returns, when there is one
    unknown_calls: list[str]  # capitalised constructor-like calls neither widget nor known value

    def widgets(self, *, callbacks: bool = False) -> list[WidgetCall]:
        """Every widget call of the class body in source order (with ``callbacks``: those in callbacks too)."""
        return [w for root in self.roots for w in root.walk(callbacks=callbacks)]


def value_nodes(named_argument: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The nodes of a named argument's value expression (everything but the label)."""
    return [c for c in named_argument.named_children if c.type != "label"]


def arg_text(named_argument: tree_sitter.Node) -> str:
    """Source text of a named argument's value (everything after ``label:``)."""
    parts = value_nodes(named_argument)
    if not parts:
        return ""
    src = named_argument.text or b""
    base = named_argument.start_byte
    return src[parts[0].start_byte - base : parts[-1].end_byte - base].decode("utf-8")


def call_at(siblings: list[tree_sitter.Node], i: int) -> tuple[str, tree_sitter.Node, int] | None:
    """A constructor-like call starting at ``siblings[i]``: (dotted name, arguments, index after it) or None."""
    node = siblings[i]
    if node.type in ("const_object_expression", "new_expression"):
        kids = node.named_children
        if not kids:
            return None
        names = [node_text(k) for k in kids if k.type in ("type_identifier", "identifier")]
        args = next((k for k in kids if k.type == "arguments"), None)
        if args is None or not names:
            return None
        return ".".join(names), args, i + 1
    if node.type != "identifier" or not node_text(node)[:1].isupper():
        return None
    name = node_text(node)
    j = i + 1
    if j < len(siblings) and siblings[j].type == "type_arguments":
        j += 1
    if j < len(siblings) and siblings[j].type == "selector":
        sel = siblings[j].named_children
        if sel and sel[0].type == "unconditional_assignable_selector":
            name += "." + node_text(sel[0].named_children[0]) if sel[0].named_children else ""
            j += 1
    if j < len(siblings) and siblings[j].type == "selector":
        sel = siblings[j].named_children
        if sel and sel[0].type == "argument_part":
            args = next((k for k in sel[0].named_children if k.type == "arguments"), None)
            if args is not None:
                return name, args, j + 1
    return None


def classify(name: str, local_widgets: frozenset[str], local_types: frozenset[str] = frozenset()) -> str:
    """'widget', 'value' or 'unknown' for a dotted constructor-like name.

    ``local_types`` are the file's own non-widget types (models, enums, extensions): values.
    """
    type_name, _, ctor = name.partition(".")
    if ctor and ctor not in WIDGET_CONSTRUCTORS:
        return "value"  # a static method (Theme.of, Navigator.push) or an enum/value constructor
    if type_name in FLUTTER_WIDGETS or type_name in local_widgets:
        return "widget"
    if type_name in FLUTTER_VALUES or name in FLUTTER_VALUES or type_name in local_types:
        return "value"
    return "unknown"


class _Collector:
    """Walks one class body and links widget calls into trees."""

    def __init__(self, local_widgets: frozenset[str], local_types: frozenset[str]) -> None:
        self.local_widgets = local_widgets
        self.local_types = local_types
        self.unknown: list[str] = []

    def collect(
        self,
        node: tree_sitter.Node,
        parent: WidgetCall | None,
        out: list[WidgetCall],
        *,
        slot: str | None = None,
        dynamic: bool = False,
        in_callback: bool = False,
        list_node: tree_sitter.Node | None = None,
    ) -> None:
        kids = node.named_children
        i = 0
        while i < len(kids):
            kid = kids[i]
            call = call_at(kids, i)
            if call is not None:
                name, args, after = call
                kind = classify(name, self.local_widgets, self.local_types)
                if kind == "unknown":
                    self.unknown.append(name)
                if kind == "widget":
                    widget = WidgetCall(
                        name=name,
                        type_name=name.partition(".")[0],
                        node=kid,
                        arguments=args,
                        slot=slot,
                        in_list=list_node is not None,
                        dynamic=dynamic,
                        in_callback=in_callback,
                        parent=parent,
                        list_node=list_node,
                    )
                    out.append(widget)
                    self._children(widget)
                    i = after
                    continue
            self._descend(kid, parent, out, slot, dynamic, in_callback, list_node)
            i += 1

    def _descend(
        self,
        kid: tree_sitter.Node,
        parent: WidgetCall | None,
        out: list[WidgetCall],
        slot: str | None,
        dynamic: bool,
        in_callback: bool,
        list_node: tree_sitter.Node | None,
    ) -> None:
        if kid.type == "named_argument":
            label = node_text(kid.named_children[0].named_children[0])
            callback = label.startswith("on") and label[2:3].isupper()
            self.collect(kid, parent, out, slot=label, dynamic=dynamic, in_callback=in_callback or callback)
        elif kid.type == "list_literal":
            self.collect(kid, parent, out, slot=slot, dynamic=dynamic, in_callback=in_callback, list_node=kid)
        else:
            # Past control flow or a closure an element is not a direct list element.
            self.collect(kid, parent, out, slot=slot, dynamic=dynamic or kid.type in _DYNAMIC_NODES,
                         in_callback=in_callback)

    def _children(self, widget: WidgetCall) -> None:
        found: list[WidgetCall] = []
        self.collect(widget.arguments, widget, found)
        widget.children = [w for w in found if not w.in_callback]
        widget.callback_widgets = [w for w in found if w.in_callback]


def _superclass(cls: tree_sitter.Node) -> str | None:
    sup = cls.child_by_field_name("superclass")
    if sup is None:
        return None
    ident = next((k for k in sup.named_children if k.type == "type_identifier"), None)
    return node_text(ident) if ident is not None else None


def _build_root(cls_node: tree_sitter.Node, roots: list[WidgetCall]) -> WidgetCall | None:
    """The widget returned by ``build``: the single root whose call is the build body's returned expression."""
    body = cls_node.child_by_field_name("body")
    if body is None:
        return None
    kids = body.named_children
    for i, kid in enumerate(kids):
        if kid.type != "method_signature":
            continue
        sig = kid.named_children[0] if kid.named_children else None
        if sig is None or sig.type != "function_signature":
            continue
        name = sig.child_by_field_name("name")
        if name is None or node_text(name) != "build" or i + 1 >= len(kids) or kids[i + 1].type != "function_body":
            continue
        fbody = kids[i + 1]
        returns = [n for n in _iter_outside_closures(fbody) if n.type == "return_statement"]
        if fbody.named_children and fbody.named_children[0].type == "block":
            if len(returns) != 1:
                return None
            expr_parent = returns[0]
        else:
            expr_parent = fbody
        first = expr_parent.named_children[0] if expr_parent.named_children else None
        return next((r for r in roots if first is not None and r.node.id == first.id), None)
    return None


def _iter_outside_closures(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    """Named nodes under ``node`` in document order, not entering closures (``function_expression``).

    Unlike ``query.iter_nodes`` on purpose: a ``return`` inside a builder closure is not a return of ``build``.
    """
    yield node
    for child in node.named_children:
        if child.type not in ("function_expression",):
            yield from _iter_outside_closures(child)


def widget_classes(source: str) -> list[WidgetClass]:
    """Every class of ``source`` with the widget trees built in its body."""
    tree = parse_dart(source)
    classes = [n for n in tree.root_node.named_children if n.type == "class_definition"]
    local = frozenset(
        node_text(c.child_by_field_name("name")) for c in classes if _superclass(c) in WIDGET_BASES
    )
    declared = frozenset(
        node_text(name)
        for n in tree.root_node.named_children
        if n.type in _TYPE_DECLARATIONS and (name := n.child_by_field_name("name")) is not None
    )
    out: list[WidgetClass] = []
    for cls in classes:
        collector = _Collector(local, declared - local)
        roots: list[WidgetCall] = []
        body = cls.child_by_field_name("body")
        if body is not None:
            collector.collect(body, None, roots)
        out.append(
            WidgetClass(
                name=node_text(cls.child_by_field_name("name")),
                superclass=_superclass(cls),
                node=cls,
                roots=roots,
                build_root=_build_root(cls, roots),
                unknown_calls=sorted(set(collector.unknown)),
            )
        )
    return out
