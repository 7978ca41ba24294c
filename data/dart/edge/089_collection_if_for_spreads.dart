import 'package:flutter/material.dart';

class FeedFilters extends StatelessWidget {
  const FeedFilters({
    super.key,
    required this.isAdmin,
    required this.categories,
    this.pinned,
    this.extraActions,
  });

  final bool isAdmin;
  final List<String> categories;
  final List<String>? pinned;
  final List<Widget>? extraActions;

  @override
  Widget build(BuildContext context) {
    final base = [const Text('Latest'), const Text('Popular')];
    final counts = {for (final c in categories) c: c.length, if (isAdmin) 'hidden': 0};
    return Scaffold(
      appBar: AppBar(
        title: const Text('Feed'),
        actions: [
          ...?extraActions,
          if (isAdmin) IconButton(icon: const Icon(Icons.admin_panel_settings), onPressed: () {}),
        ],
      ),
      body: ListView(
        children: [
          ...base,
          if (pinned != null && pinned!.isNotEmpty) ...[
            const Text('Pinned', style: TextStyle(fontWeight: FontWeight.bold)),
            for (final p in pinned!) ListTile(leading: const Icon(Icons.push_pin), title: Text(p)),
          ] else
            const Text('Nothing pinned'),
          for (var i = 0; i < categories.length; i++)
            if (i.isEven)
              ListTile(title: Text(categories[i]), trailing: Text('${counts[categories[i]]}'))
            else
              ListTile(title: Text(categories[i].toUpperCase())),
          ...[for (final c in categories) if (c.startsWith('a')) Text('A-topic: $c')],
          ...{'x', 'y'}.map((e) => Text(e)),
          if (isAdmin) ...?pinned?.map((p) => Text('admin: $p')),
        ],
      ),
    );
  }
}
