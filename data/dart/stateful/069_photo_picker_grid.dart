import 'package:flutter/material.dart';

class PhotoPickerGrid extends StatefulWidget {
  const PhotoPickerGrid({super.key});

  @override
  State<PhotoPickerGrid> createState() => _PhotoPickerGridState();
}

class _PhotoPickerGridState extends State<PhotoPickerGrid> {
  final Set<int> _selected = {};

  void _toggle(int index) {
    setState(() {
      if (!_selected.remove(index)) {
        _selected.add(index);
      }
    });
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        title: Text(_selected.isEmpty ? 'Select photos' : '${_selected.length} selected'),
        actions: [
          TextButton(
            onPressed: _selected.isEmpty
                ? null
                : () => Navigator.push(
                      context,
                      MaterialPageRoute(builder: (_) => ShareSheetPage(count: _selected.length)),
                    ),
            child: const Text('Share'),
          ),
        ],
      ),
      body: GridView.builder(
        gridDelegate: const SliverGridDelegateWithFixedCrossAxisCount(crossAxisCount: 4),
        itemCount: 40,
        itemBuilder: (context, index) => GestureDetector(
          onTap: () => _toggle(index),
          child: Stack(
            fit: StackFit.expand,
            children: [
              Image.network('https://photos.example.com/thumb/$index.jpg', fit: BoxFit.cover),
              if (_selected.contains(index))
                const Positioned(
                  top: 4,
                  right: 4,
                  child: Icon(Icons.check_circle, color: Colors.lightBlueAccent),
                ),
            ],
          ),
        ),
      ),
    );
  }
}

class ShareSheetPage extends StatelessWidget {
  const ShareSheetPage({super.key, required this.count});

  final int count;

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: Text('Share $count photos')),
      body: const Center(child: Text('Choose an app')),
    );
  }
}
