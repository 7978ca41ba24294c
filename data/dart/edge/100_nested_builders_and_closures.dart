import 'package:flutter/material.dart';

class ContactsDirectory extends StatelessWidget {
  const ContactsDirectory({super.key, required this.groups});

  final Map<String, List<String>> groups;

  @override
  Widget build(BuildContext context) {
    final sortedKeys = groups.keys.toList()..sort((a, b) => a.compareTo(b));
    return Scaffold(
      appBar: AppBar(title: const Text('Directory')),
      body: LayoutBuilder(
        builder: (context, constraints) => ListView.builder(
          itemCount: sortedKeys.length,
          itemBuilder: (context, section) {
            final letter = sortedKeys[section];
            final names = groups[letter] ?? const [];
            return Column(
              crossAxisAlignment: CrossAxisAlignment.start,
              children: [
                Container(
                  width: constraints.maxWidth,
                  color: Colors.grey.shade200,
                  padding: const EdgeInsets.symmetric(horizontal: 16, vertical: 4),
                  child: Text(letter, style: const TextStyle(fontWeight: FontWeight.bold)),
                ),
                ...names.asMap().entries.map(
                      (e) => Builder(
                        builder: (innerContext) => ListTile(
                          title: Text(e.value),
                          subtitle: Text('#${e.key + 1} in "$letter"'),
                          onTap: () => showDialog<void>(
                            context: innerContext,
                            builder: (dialogContext) => AlertDialog(
                              title: Text(e.value),
                              content: Text('Call ${e.value.split(' ').first}?'),
                              actions: [
                                TextButton(
                                  onPressed: () => Navigator.of(dialogContext).pop(),
                                  child: const Text('Cancel'),
                                ),
                                TextButton(
                                  onPressed: () {
                                    Navigator.of(dialogContext).pop();
                                    Navigator.pushNamed(innerContext, '/call', arguments: e.value);
                                  },
                                  child: const Text('Call'),
                                ),
                              ],
                            ),
                          ),
                        ),
                      ),
                    ),
              ],
            );
          },
        ),
      ),
    );
  }
}
