import 'package:flutter/material.dart';

/// Single-letter names that collide with COON widget abbreviations.
class S {
  const S(this.b);

  final String b;
}

class C {
  C(this.h);

  final List<S> h;
}

class T extends StatelessWidget {
  const T(this.t, {super.key});

  final String t;

  @override
  Widget build(BuildContext context) => Text(t);
}

class K extends StatelessWidget {
  const K({super.key, required this.c});

  final Widget c;

  @override
  Widget build(BuildContext context) {
    final h = <Widget>[c, const T('a:')];
    final ret = h.length;
    final Ic = Icons.check;
    final _ = 0;
    final f = ret > 1;
    final m = {'c': 1, 'f': 0};
    final p = 16.0;
    return Container(
      padding: EdgeInsets.all(p),
      child: Column(
        children: [
          ...h,
          Icon(Ic),
          T('ret=$ret f=$f m=${m['c']}'),
          T(C([const S('b')]).h.first.b),
        ],
      ),
    );
  }
}

class N extends StatelessWidget {
  const N({super.key});

  @override
  Widget build(BuildContext context) => const K(c: T('N'));
}
