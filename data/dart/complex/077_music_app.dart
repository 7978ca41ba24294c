import 'package:flutter/material.dart';

void main() => runApp(const MusicApp());

class Track {
  const Track(this.title, this.artist, this.seconds);

  final String title;
  final String artist;
  final int seconds;

  String get duration => '${seconds ~/ 60}:${(seconds % 60).toString().padLeft(2, '0')}';
}

class Album {
  const Album(this.title, this.artist, this.cover, this.tracks);

  final String title;
  final String artist;
  final String cover;
  final List<Track> tracks;
}

const albums = [
  Album('Salt Flats', 'Mira Vale', 'https://music.example.com/c/salt.jpg', [
    Track('Opening', 'Mira Vale', 184),
    Track('Mirage', 'Mira Vale', 231),
    Track('White Horizon', 'Mira Vale', 302),
  ]),
  Album('Night Bus', 'Kobalt Seven', 'https://music.example.com/c/bus.jpg', [
    Track('Last Stop', 'Kobalt Seven', 199),
    Track('Neon Rain', 'Kobalt Seven', 245),
  ]),
];

class MusicApp extends StatelessWidget {
  const MusicApp({super.key});

  @override
  Widget build(BuildContext context) {
    return MaterialApp(
      title: 'Tonearm',
      theme: ThemeData.dark(),
      home: const LibraryScreen(),
    );
  }
}

class LibraryScreen extends StatelessWidget {
  const LibraryScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Library')),
      body: GridView.count(
        crossAxisCount: 2,
        padding: const EdgeInsets.all(12),
        crossAxisSpacing: 12,
        mainAxisSpacing: 12,
        children: [
          for (final album in albums)
            InkWell(
              onTap: () => Navigator.push(
                context,
                MaterialPageRoute(builder: (_) => AlbumScreen(album: album)),
              ),
              child: Column(
                crossAxisAlignment: CrossAxisAlignment.start,
                children: [
                  Expanded(child: Image.network(album.cover, fit: BoxFit.cover)),
                  const SizedBox(height: 6),
                  Text(album.title, style: const TextStyle(fontWeight: FontWeight.bold)),
                  Text(album.artist, style: const TextStyle(color: Colors.white60)),
                ],
              ),
            ),
        ],
      ),
    );
  }
}

class AlbumScreen extends StatelessWidget {
  const AlbumScreen({super.key, required this.album});

  final Album album;

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: Text(album.title)),
      body: ListView(
        children: [
          Image.network(album.cover, height: 240, fit: BoxFit.cover),
          for (var i = 0; i < album.tracks.length; i++)
            ListTile(
              leading: Text('${i + 1}'),
              title: Text(album.tracks[i].title),
              trailing: Text(album.tracks[i].duration),
              onTap: () => Navigator.push(
                context,
                MaterialPageRoute(builder: (_) => PlayerScreen(queue: album.tracks, start: i)),
              ),
            ),
        ],
      ),
    );
  }
}

class PlayerScreen extends StatefulWidget {
  const PlayerScreen({super.key, required this.queue, required this.start});

  final List<Track> queue;
  final int start;

  @override
  State<PlayerScreen> createState() => _PlayerScreenState();
}

class _PlayerScreenState extends State<PlayerScreen> {
  late int _index = widget.start;
  bool _playing = true;
  bool _repeat = false;
  double _position = 0;

  Track get _track => widget.queue[_index];

  void _next() {
    setState(() {
      if (_index < widget.queue.length - 1) {
        _index++;
      } else if (_repeat) {
        _index = 0;
      }
      _position = 0;
    });
  }

  void _previous() {
    setState(() {
      _index = _index > 0 ? _index - 1 : 0;
      _position = 0;
    });
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Playing')),
      body: Padding(
        padding: const EdgeInsets.all(24),
        child: Column(
          children: [
            const Spacer(),
            Text(_track.title, style: const TextStyle(fontSize: 28)),
            Text(_track.artist, style: const TextStyle(color: Colors.white70)),
            Slider(
              value: _position,
              max: _track.seconds.toDouble(),
              onChanged: (v) => setState(() => _position = v),
            ),
            Row(
              mainAxisAlignment: MainAxisAlignment.spaceEvenly,
              children: [
                IconButton(
                  icon: Icon(Icons.repeat, color: _repeat ? Colors.greenAccent : Colors.white),
                  onPressed: () => setState(() => _repeat = !_repeat),
                ),
                IconButton(icon: const Icon(Icons.skip_previous), iconSize: 40, onPressed: _previous),
                IconButton(
                  icon: Icon(_playing ? Icons.pause_circle : Icons.play_circle),
                  iconSize: 72,
                  onPressed: () => setState(() => _playing = !_playing),
                ),
                IconButton(icon: const Icon(Icons.skip_next), iconSize: 40, onPressed: _next),
              ],
            ),
            const Spacer(),
          ],
        ),
      ),
    );
  }
}
