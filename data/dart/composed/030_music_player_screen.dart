import 'package:flutter/material.dart';

class MusicPlayerScreen extends StatelessWidget {
  const MusicPlayerScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      backgroundColor: Colors.black,
      appBar: AppBar(
        backgroundColor: Colors.black,
        title: const Text('Now playing'),
      ),
      body: Padding(
        padding: const EdgeInsets.all(32),
        child: Column(
          children: [
            ClipRRect(
              borderRadius: BorderRadius.circular(12),
              child: Image.network('https://covers.example.com/midnight-drive.jpg', height: 280),
            ),
            const SizedBox(height: 24),
            const Text('Midnight Drive', style: TextStyle(color: Colors.white, fontSize: 24)),
            const Text('The Neon Tides', style: TextStyle(color: Colors.white54, fontSize: 16)),
            const SizedBox(height: 24),
            const LinearProgressIndicator(value: 0.42, color: Colors.greenAccent),
            const SizedBox(height: 24),
            Row(
              mainAxisAlignment: MainAxisAlignment.spaceEvenly,
              children: [
                IconButton(
                  icon: const Icon(Icons.skip_previous, color: Colors.white),
                  iconSize: 40,
                  onPressed: () {},
                ),
                IconButton(
                  icon: const Icon(Icons.pause_circle_filled, color: Colors.white),
                  iconSize: 64,
                  onPressed: () {},
                ),
                IconButton(
                  icon: const Icon(Icons.skip_next, color: Colors.white),
                  iconSize: 40,
                  onPressed: () {},
                ),
              ],
            ),
          ],
        ),
      ),
    );
  }
}
