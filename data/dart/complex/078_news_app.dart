import 'package:flutter/material.dart';

void main() => runApp(const NewsApp());

class Article {
  const Article({
    required this.id,
    required this.headline,
    required this.section,
    required this.author,
    required this.body,
    this.imageUrl,
  });

  final int id;
  final String headline;
  final String section;
  final String author;
  final String body;
  final String? imageUrl;
}

const articles = [
  Article(
    id: 101,
    headline: 'Tram line extension opens to the airport',
    section: 'City',
    author: 'R. Okafor',
    body: 'The 6 km extension adds four stops and cuts travel time to 22 minutes.',
    imageUrl: 'https://news.example.com/img/tram.jpg',
  ),
  Article(
    id: 102,
    headline: 'Underdogs reach the cup final',
    section: 'Sport',
    author: 'T. Lindqvist',
    body: 'A stoppage-time header sealed a 2–1 win in front of 41,000 fans.',
  ),
  Article(
    id: 103,
    headline: 'Start-up unveils solid-state battery prototype',
    section: 'Tech',
    author: 'A. Fernandes',
    body: 'The cell reportedly survives 1,200 charge cycles with 90% capacity.',
    imageUrl: 'https://news.example.com/img/battery.jpg',
  ),
];

class NewsApp extends StatelessWidget {
  const NewsApp({super.key});

  @override
  Widget build(BuildContext context) {
    return MaterialApp(
      title: 'The Daily Ledger',
      theme: ThemeData(colorSchemeSeed: Colors.blueGrey),
      routes: {
        '/': (context) => const HeadlinesScreen(),
        '/saved': (context) => const SavedScreen(),
      },
    );
  }
}

final Set<int> savedIds = {};

class HeadlinesScreen extends StatefulWidget {
  const HeadlinesScreen({super.key});

  @override
  State<HeadlinesScreen> createState() => _HeadlinesScreenState();
}

class _HeadlinesScreenState extends State<HeadlinesScreen> {
  String? _section;

  @override
  Widget build(BuildContext context) {
    final sections = articles.map((a) => a.section).toSet().toList()..sort();
    final shown = articles.where((a) => _section == null || a.section == _section).toList();
    return Scaffold(
      appBar: AppBar(
        title: const Text('The Daily Ledger'),
        actions: [
          IconButton(
            icon: const Icon(Icons.bookmarks_outlined),
            onPressed: () => Navigator.pushNamed(context, '/saved'),
          ),
        ],
      ),
      body: Column(
        children: [
          SizedBox(
            height: 56,
            child: ListView(
              scrollDirection: Axis.horizontal,
              padding: const EdgeInsets.symmetric(horizontal: 8),
              children: [
                Padding(
                  padding: const EdgeInsets.all(6),
                  child: FilterChip(
                    label: const Text('All'),
                    selected: _section == null,
                    onSelected: (_) => setState(() => _section = null),
                  ),
                ),
                for (final s in sections)
                  Padding(
                    padding: const EdgeInsets.all(6),
                    child: FilterChip(
                      label: Text(s),
                      selected: _section == s,
                      onSelected: (_) => setState(() => _section = s),
                    ),
                  ),
              ],
            ),
          ),
          Expanded(
            child: RefreshIndicator(
              onRefresh: () async => setState(() {}),
              child: ListView.builder(
                itemCount: shown.length,
                itemBuilder: (context, i) {
                  final a = shown[i];
                  return ListTile(
                    leading: a.imageUrl != null
                        ? Image.network(a.imageUrl!, width: 64, fit: BoxFit.cover)
                        : const Icon(Icons.article, size: 40),
                    title: Text(a.headline),
                    subtitle: Text('${a.section} · ${a.author}'),
                    onTap: () => Navigator.push(
                      context,
                      MaterialPageRoute(builder: (_) => ArticleScreen(article: a)),
                    ),
                  );
                },
              ),
            ),
          ),
        ],
      ),
    );
  }
}

class ArticleScreen extends StatefulWidget {
  const ArticleScreen({super.key, required this.article});

  final Article article;

  @override
  State<ArticleScreen> createState() => _ArticleScreenState();
}

class _ArticleScreenState extends State<ArticleScreen> {
  double _textScale = 1.0;

  @override
  Widget build(BuildContext context) {
    final a = widget.article;
    final saved = savedIds.contains(a.id);
    return Scaffold(
      appBar: AppBar(
        title: Text(a.section),
        actions: [
          IconButton(
            icon: const Icon(Icons.text_increase),
            onPressed: () => setState(() => _textScale = _textScale >= 1.6 ? 1.0 : _textScale + 0.2),
          ),
          IconButton(
            icon: Icon(saved ? Icons.bookmark : Icons.bookmark_border),
            onPressed: () => setState(() => saved ? savedIds.remove(a.id) : savedIds.add(a.id)),
          ),
        ],
      ),
      body: ListView(
        padding: const EdgeInsets.all(16),
        children: [
          if (a.imageUrl != null) Image.network(a.imageUrl!),
          const SizedBox(height: 12),
          Text(a.headline, style: TextStyle(fontSize: 24 * _textScale, fontWeight: FontWeight.bold)),
          Text('By ${a.author}', style: const TextStyle(color: Colors.grey)),
          const SizedBox(height: 12),
          Text(a.body, style: TextStyle(fontSize: 16 * _textScale, height: 1.5)),
        ],
      ),
    );
  }
}

class SavedScreen extends StatelessWidget {
  const SavedScreen({super.key});

  @override
  Widget build(BuildContext context) {
    final saved = articles.where((a) => savedIds.contains(a.id)).toList();
    return Scaffold(
      appBar: AppBar(title: const Text('Saved')),
      body: saved.isEmpty
          ? const Center(child: Text('No saved articles'))
          : ListView(children: [for (final a in saved) ListTile(title: Text(a.headline))]),
    );
  }
}
