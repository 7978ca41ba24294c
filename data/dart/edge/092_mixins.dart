import 'package:flutter/material.dart';

mixin Logging {
  final List<String> logLines = [];

  void log(String message) => logLines.add('[${DateTime.now().toIso8601String()}] $message');
}

mixin Validation<T> on Object {
  bool isValid(T value);

  String? validate(T value) => isValid(value) ? null : 'Invalid value: $value';
}

class EmailValidator with Logging, Validation<String> {
  @override
  bool isValid(String value) {
    log('checking $value');
    return value.contains('@') && value.contains('.');
  }
}

class PulsingHeart extends StatefulWidget {
  const PulsingHeart({super.key});

  @override
  State<PulsingHeart> createState() => _PulsingHeartState();
}

class _PulsingHeartState extends State<PulsingHeart> with SingleTickerProviderStateMixin, Logging {
  late final AnimationController _controller = AnimationController(
    vsync: this,
    duration: const Duration(milliseconds: 900),
  )..repeat(reverse: true);

  @override
  void initState() {
    super.initState();
    log('heart started');
  }

  @override
  void dispose() {
    _controller.dispose();
    super.dispose();
  }

  @override
  Widget build(BuildContext context) {
    return ScaleTransition(
      scale: Tween<double>(begin: 0.85, end: 1.15).animate(_controller),
      child: GestureDetector(
        onTap: () => setState(() => log('tapped')),
        child: Column(
          mainAxisSize: MainAxisSize.min,
          children: [
            const Icon(Icons.favorite, color: Colors.red, size: 64),
            Text('${logLines.length} events'),
          ],
        ),
      ),
    );
  }
}
