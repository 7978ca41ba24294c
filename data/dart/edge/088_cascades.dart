import 'package:flutter/material.dart';

class SketchPainter extends CustomPainter {
  @override
  void paint(Canvas canvas, Size size) {
    final paint = Paint()
      ..color = Colors.indigo
      ..strokeWidth = 4
      ..style = PaintingStyle.stroke;
    final path = Path()
      ..moveTo(0, size.height)
      ..lineTo(size.width / 2, 0)
      ..lineTo(size.width, size.height)
      ..close();
    canvas
      ..drawPath(path, paint)
      ..drawCircle(Offset(size.width / 2, size.height / 2), 12, paint..color = Colors.red);
  }

  @override
  bool shouldRepaint(covariant CustomPainter oldDelegate) => false;
}

class CascadeDemo extends StatefulWidget {
  const CascadeDemo({super.key});

  @override
  State<CascadeDemo> createState() => _CascadeDemoState();
}

class _CascadeDemoState extends State<CascadeDemo> {
  final _controller = TextEditingController()..text = 'draft';
  List<String>? _log;
  final _buffer = StringBuffer()
    ..write('Started')
    ..writeln(' at 09:00');

  void _record(String entry) {
    setState(() {
      _log?..add(entry)..sort();
      _log ??= [entry];
    });
  }

  @override
  void dispose() {
    _controller
      ..clear()
      ..dispose();
    super.dispose();
  }

  @override
  Widget build(BuildContext context) {
    return Column(
      children: [
        CustomPaint(size: const Size(120, 120), painter: SketchPainter()),
        TextField(controller: _controller, onSubmitted: _record),
        Text(_buffer.toString()),
        Text('${_log?.length ?? 0} entries'),
      ],
    );
  }
}
