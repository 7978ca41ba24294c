import 'package:flutter/material.dart';

/// Help text for the COON cheat-sheet screen: the strings hold COON syntax verbatim.
class CoonCheatSheet extends StatelessWidget {
  const CoonCheatSheet({super.key});

  static const examples = {
    'scaffold': 'S{b:C{h:[T\'x\']}}',
    'padding': '@16 ~Foo #bar c: f:',
    'class': "c:MyScreen<StatefulWidget>;m:b S{a:B{t:T'Home'}}",
    'keywords': 'ret _ 1 0 < > + m:b',
    'braces': '{}[]();:,\'"',
  };

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('S{a:B{t:T\'COON\'}}')),
      body: ListView(
        padding: const EdgeInsets.all(16),
        children: [
          for (final entry in examples.entries)
            ListTile(
              title: Text(entry.key),
              subtitle: Text(entry.value, style: const TextStyle(fontFamily: 'monospace')),
            ),
          const Text(r'Raw: K{p:@8,c:T"$x"} ${y}'),
          const Text('''Multi-line:
S{
  b:C{h:[T'a',T'b']}
}'''),
          const Text('Escaped dollar: \$S{b:_}'),
          Text('Interpolated: ${examples['padding']!.split(' ').first}'),
        ],
      ),
    );
  }
}
