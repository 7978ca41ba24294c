import 'package:flutter/material.dart';

abstract class Identifiable {
  String get id;
}

class Repository<T extends Identifiable> {
  final Map<String, T> _store = <String, T>{};

  void save(T item) => _store[item.id] = item;

  T? find(String id) => _store[id];

  List<R> mapAll<R>(R Function(T item) convert) => _store.values.map(convert).toList();
}

class Pair<A, B> {
  const Pair(this.first, this.second);

  final A first;
  final B second;
}

class Song implements Identifiable {
  const Song(this.id, this.title);

  @override
  final String id;
  final String title;
}

class SelectableList<T> extends StatefulWidget {
  const SelectableList({super.key, required this.items, required this.labelOf, this.onSelected});

  final List<T> items;
  final String Function(T) labelOf;
  final ValueChanged<T>? onSelected;

  @override
  State<SelectableList<T>> createState() => _SelectableListState<T>();
}

class _SelectableListState<T> extends State<SelectableList<T>> {
  T? _selected;

  @override
  Widget build(BuildContext context) {
    return ListView(
      children: <Widget>[
        for (final item in widget.items)
          RadioListTile<T>(
            value: item,
            groupValue: _selected,
            title: Text(widget.labelOf(item)),
            onChanged: (T? value) {
              setState(() => _selected = value);
              if (value != null) widget.onSelected?.call(value);
            },
          ),
      ],
    );
  }
}

Widget buildSongPicker() {
  final repo = Repository<Song>()
    ..save(const Song('s1', 'Blue Hour'))
    ..save(const Song('s2', 'Paper Moon'));
  final Map<String, List<Pair<int, double>>> charts = {
    'week': [const Pair<int, double>(1, 9.5)],
  };
  return SelectableList<Song>(
    items: repo.mapAll<Song>((s) => s),
    labelOf: (song) => '${song.title} (${charts['week']?.first.second})',
  );
}
