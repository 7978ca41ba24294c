import 'package:flutter/material.dart';

const emailPattern = r'^[\w.+-]+@[\w-]+\.[\w.]+$';
const windowsPath = r'C:\Users\dana\Documents\notes.txt';
const rawDollar = r'Costs $5 and ${not interpolated}';

const termsText = '''
By tapping "Accept" you agree to the Terms.
It's a 'multi-line' string with ${1 + 1} interpolations.
''';

const jsonSample = """
{"name": "Dana", "tags": ["a", "b"], "quote": "it's"}
""";

const rawTriple = r'''Regex: \d{3}-\d{4}
Path: C:\temp\$cache''';

class TermsCard extends StatelessWidget {
  const TermsCard({super.key});

  @override
  Widget build(BuildContext context) {
    final valid = RegExp(emailPattern).hasMatch('dana@example.com');
    return Card(
      margin: const EdgeInsets.all(16),
      child: Padding(
        padding: const EdgeInsets.all(16),
        child: Column(
          crossAxisAlignment: CrossAxisAlignment.start,
          children: [
            const Text(termsText),
            const Text(windowsPath, style: TextStyle(fontFamily: 'monospace')),
            const Text(rawDollar),
            const Text(jsonSample),
            const Text(rawTriple),
            Text(valid ? r'valid \o/' : r"invalid :'("),
            const Text("""Triple "double" quotes"""),
            const Text('''Triple 'single' quotes'''),
          ],
        ),
      ),
    );
  }
}
