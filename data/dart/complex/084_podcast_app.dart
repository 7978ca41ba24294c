import 'package:flutter/material.dart';

void main() => runApp(const PodcastApp());

class Episode {
  const Episode(this.number, this.title, this.minutes, this.audioUrl);

  final int number;
  final String title;
  final int minutes;
  final String audioUrl;
}

class Show {
  const Show(this.name, this.host, this.artwork, this.episodes);

  final String name;
  final String host;
  final String artwork;
  final List<Episode> episodes;
}

const shows = [
  Show('Deep Field', 'Dr. Ana Ruiz', 'https://pods.example.com/art/deepfield.png', [
    Episode(41, 'The edge of the observable universe', 52, 'https://pods.example.com/df/41.mp3'),
    Episode(40, 'Why is the sky dark at night?', 38, 'https://pods.example.com/df/40.mp3'),
  ]),
  Show('Side Hustle Diaries', 'Ben & Kofi', 'https://pods.example.com/art/shd.png', [
    Episode(118, 'Pricing your first product', 44, 'https://pods.example.com/shd/118.mp3'),
  ]),
];

class PodcastApp extends StatelessWidget {
  const PodcastApp({super.key});

  @override
  Widget build(BuildContext context) {
    return MaterialApp(
      title: 'Earshot',
      theme: ThemeData(colorSchemeSeed: Colors.pinkAccent),
      home: const SubscriptionsScreen(),
    );
  }
}

class SubscriptionsScreen extends StatefulWidget {
  const SubscriptionsScreen({super.key});

  @override
  State<SubscriptionsScreen> createState() => _SubscriptionsScreenState();
}

class _SubscriptionsScreenState extends State<SubscriptionsScreen> {
  final Set<String> _downloaded = {};
  Episode? _nowPlaying;

  void _play(Episode e) {
    setState(() => _nowPlaying = e);
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Subscriptions')),
      body: ListView(
        children: [
          for (final show in shows) ...[
            ListTile(
              leading: ClipRRect(
                borderRadius: BorderRadius.circular(8),
                child: Image.network(show.artwork, width: 56, height: 56),
              ),
              title: Text(show.name, style: const TextStyle(fontWeight: FontWeight.bold)),
              subtitle: Text('Hosted by ${show.host}'),
              onTap: () => Navigator.push(
                context,
                MaterialPageRoute(builder: (_) => ShowScreen(show: show, onPlay: _play)),
              ),
            ),
            for (final e in show.episodes)
              ListTile(
                contentPadding: const EdgeInsets.only(left: 88, right: 16),
                title: Text('#${e.number} ${e.title}', maxLines: 2),
                subtitle: Text('${e.minutes} min'),
                trailing: IconButton(
                  icon: Icon(_downloaded.contains(e.audioUrl) ? Icons.download_done : Icons.download),
                  onPressed: () => setState(() => _downloaded.add(e.audioUrl)),
                ),
                onTap: () => _play(e),
              ),
            const Divider(),
          ],
        ],
      ),
      bottomNavigationBar: _nowPlaying == null
          ? null
          : Material(
              elevation: 8,
              child: ListTile(
                leading: const Icon(Icons.graphic_eq),
                title: Text(_nowPlaying!.title, maxLines: 1),
                trailing: IconButton(
                  icon: const Icon(Icons.close),
                  onPressed: () => setState(() => _nowPlaying = null),
                ),
              ),
            ),
    );
  }
}

class ShowScreen extends StatelessWidget {
  const ShowScreen({super.key, required this.show, required this.onPlay});

  final Show show;
  final ValueChanged<Episode> onPlay;

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      body: CustomScrollView(
        slivers: [
          SliverAppBar(
            pinned: true,
            expandedHeight: 260,
            flexibleSpace: FlexibleSpaceBar(
              title: Text(show.name),
              background: Image.network(show.artwork, fit: BoxFit.cover),
            ),
          ),
          SliverList(
            delegate: SliverChildBuilderDelegate(
              (context, i) {
                final e = show.episodes[i];
                return ListTile(
                  title: Text(e.title),
                  subtitle: Text('Episode ${e.number} · ${e.minutes} min'),
                  trailing: const Icon(Icons.play_circle_outline),
                  onTap: () {
                    onPlay(e);
                    Navigator.pop(context);
                  },
                );
              },
              childCount: show.episodes.length,
            ),
          ),
        ],
      ),
    );
  }
}
