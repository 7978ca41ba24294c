import 'package:flutter/material.dart';

sealed class LoadState<T> {
  const LoadState();
}

final class Loading<T> extends LoadState<T> {
  const Loading();
}

final class Loaded<T> extends LoadState<T> {
  const Loaded(this.data);

  final T data;
}

final class Failed<T> extends LoadState<T> {
  const Failed(this.message, {this.retryable = true});

  final String message;
  final bool retryable;
}

class ForecastPanel extends StatelessWidget {
  const ForecastPanel({super.key, required this.state, required this.onRetry});

  final LoadState<List<int>> state;
  final VoidCallback onRetry;

  @override
  Widget build(BuildContext context) {
    return switch (state) {
      Loading() => const Center(child: CircularProgressIndicator()),
      Loaded(data: final temps) when temps.isEmpty => const Text('No data'),
      Loaded(data: final temps) => ListView(
          children: [for (final t in temps) ListTile(title: Text('$t°'))],
        ),
      Failed(message: final msg, retryable: true) => Column(
          children: [
            Text('Error: $msg'),
            ElevatedButton(onPressed: onRetry, child: const Text('Retry')),
          ],
        ),
      Failed(:final message) => Text('Fatal: $message'),
    };
  }
}

String label(LoadState<Object?> s) {
  switch (s) {
    case Loading():
      return 'loading';
    case Loaded(:final data) when data == null:
      return 'empty';
    case Loaded():
      return 'ready';
    case Failed(retryable: false):
    case Failed():
      return 'failed';
  }
}
