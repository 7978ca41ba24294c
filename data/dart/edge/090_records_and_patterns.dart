import 'package:flutter/material.dart';

(int, String) parseScore(String raw) {
  final parts = raw.split(':');
  return (int.parse(parts[0]), parts[1]);
}

({double lat, double lng}) homeLocation() => (lat: 52.37, lng: 4.89);

String describe(Object? value) => switch (value) {
      null => 'nothing',
      int n when n < 0 => 'negative $n',
      0 || 1 => 'tiny',
      int n => 'int $n',
      (int a, String b) => 'pair $a/$b',
      [String first, ...] => 'list starting $first',
      {'type': 'user', 'name': String name} => 'user $name',
      String s => 'text "$s"',
      _ => 'other',
    };

class ScoreBoard extends StatelessWidget {
  const ScoreBoard({super.key, required this.entries});

  final List<(String, int)> entries;

  @override
  Widget build(BuildContext context) {
    final (points, player) = parseScore('42:Ada');
    final (:lat, :lng) = homeLocation();
    var best = entries.isEmpty ? ('-', 0) : entries.first;
    for (final (name, score) in entries) {
      if (score > best.$2) best = (name, score);
    }
    final json = <String, Object>{'type': 'user', 'name': 'Lin'};
    if (json case {'name': String who}) {
      debugPrint('hello $who');
    }
    return Column(
      children: [
        Text('$player scored $points'),
        Text('Home at ${lat.toStringAsFixed(2)}, ${lng.toStringAsFixed(2)}'),
        Text('Best: ${best.$1} (${best.$2})'),
        for (final (name, score) in entries)
          ListTile(
            title: Text(name),
            trailing: Text(switch (score) { >= 90 => 'A', >= 75 => 'B', _ => 'C' }),
          ),
        Text(describe((3, 'x'))),
        Text(describe(json)),
      ],
    );
  }
}
