import 'package:flutter/material.dart';

class LibraryBookDetail extends StatelessWidget {
  const LibraryBookDetail({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Book details')),
      body: Padding(
        padding: const EdgeInsets.all(18),
        child: Column(
          crossAxisAlignment: CrossAxisAlignment.start,
          children: [
            Row(
              crossAxisAlignment: CrossAxisAlignment.start,
              children: [
                Image.network('https://books.example.com/covers/9780141439518.jpg', width: 100),
                const SizedBox(width: 16),
                Expanded(
                  child: Column(
                    crossAxisAlignment: CrossAxisAlignment.start,
                    children: const [
                      Text('Pride and Prejudice', style: TextStyle(fontSize: 20)),
                      SizedBox(height: 4),
                      Text('Jane Austen'),
                      SizedBox(height: 4),
                      Text('Shelf B-14 · 2 copies available', style: TextStyle(color: Colors.green)),
                    ],
                  ),
                ),
              ],
            ),
            const SizedBox(height: 20),
            const Text(
              'A witty portrait of manners and marriage in Regency England.',
              style: TextStyle(fontSize: 15),
            ),
            const SizedBox(height: 20),
            Row(
              children: [
                Expanded(
                  child: ElevatedButton(
                    onPressed: () => Navigator.pushNamed(context, '/loans/new'),
                    child: const Text('Borrow'),
                  ),
                ),
                const SizedBox(width: 12),
                Expanded(
                  child: OutlinedButton(
                    onPressed: () => Navigator.pushNamed(context, '/reservations'),
                    child: const Text('Reserve'),
                  ),
                ),
              ],
            ),
          ],
        ),
      ),
    );
  }
}
