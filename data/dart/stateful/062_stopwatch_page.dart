import 'dart:async';

import 'package:flutter/material.dart';

class StopwatchPage extends StatefulWidget {
  const StopwatchPage({super.key});

  @override
  State<StopwatchPage> createState() => _StopwatchPageState();
}

class _StopwatchPageState extends State<StopwatchPage> {
  Timer? _timer;
  int _elapsedSeconds = 0;
  final List<int> _laps = [];

  void _start() {
    _timer ??= Timer.periodic(const Duration(seconds: 1), (_) {
      setState(() => _elapsedSeconds++);
    });
  }

  void _stop() {
    _timer?.cancel();
    _timer = null;
  }

  void _lap() {
    setState(() => _laps.insert(0, _elapsedSeconds));
  }

  @override
  void dispose() {
    _timer?.cancel();
    super.dispose();
  }

  @override
  Widget build(BuildContext context) {
    final minutes = (_elapsedSeconds ~/ 60).toString().padLeft(2, '0');
    final seconds = (_elapsedSeconds % 60).toString().padLeft(2, '0');
    return Scaffold(
      appBar: AppBar(title: const Text('Stopwatch')),
      body: Column(
        children: [
          const SizedBox(height: 40),
          Text('$minutes:$seconds', style: const TextStyle(fontSize: 72)),
          Row(
            mainAxisAlignment: MainAxisAlignment.center,
            children: [
              ElevatedButton(onPressed: _start, child: const Text('Start')),
              const SizedBox(width: 12),
              ElevatedButton(onPressed: _stop, child: const Text('Stop')),
              const SizedBox(width: 12),
              OutlinedButton(onPressed: _lap, child: const Text('Lap')),
            ],
          ),
          Expanded(
            child: ListView.builder(
              itemCount: _laps.length,
              itemBuilder: (context, i) => ListTile(
                leading: Text('#${_laps.length - i}'),
                title: Text('${_laps[i]} s'),
              ),
            ),
          ),
        ],
      ),
    );
  }
}
