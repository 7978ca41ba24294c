import 'package:flutter/material.dart';

class PlaylistScreen extends StatelessWidget {
  const PlaylistScreen({super.key});

  static const tracks = [
    ('Golden Hour', '3:41'),
    ('Paper Planes', '4:02'),
    ('Low Tide', '2:58'),
    ('Northern Lights', '5:15'),
  ];

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Road Trip Mix')),
      body: Column(
        children: [
          Container(
            height: 180,
            color: Colors.orange.shade200,
            child: const Center(child: Icon(Icons.queue_music, size: 80)),
          ),
          ListTile(
            title: const Text('4 songs · 15 min'),
            trailing: IconButton(
              icon: const Icon(Icons.shuffle),
              onPressed: () => Navigator.pushNamed(context, '/player', arguments: 'shuffle'),
            ),
          ),
          Expanded(
            child: ListView.builder(
              itemCount: tracks.length,
              itemBuilder: (context, i) => ListTile(
                leading: Text('${i + 1}'),
                title: Text(tracks[i].$1),
                trailing: Text(tracks[i].$2),
              ),
            ),
          ),
        ],
      ),
    );
  }
}
