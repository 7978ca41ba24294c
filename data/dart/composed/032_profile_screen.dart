import 'package:flutter/material.dart';

class ProfileScreen extends StatelessWidget {
  const ProfileScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        title: const Text('Profile'),
        actions: [
          IconButton(
            icon: const Icon(Icons.settings),
            onPressed: () => Navigator.pushNamed(context, '/settings'),
          ),
        ],
      ),
      body: SingleChildScrollView(
        padding: const EdgeInsets.all(20),
        child: Column(
          children: [
            const CircleAvatar(
              radius: 54,
              backgroundImage: NetworkImage('https://img.example.com/u/samir.png'),
            ),
            const SizedBox(height: 12),
            const Text('Samir Haddad', style: TextStyle(fontSize: 22, fontWeight: FontWeight.bold)),
            const Text('Product designer · Berlin', style: TextStyle(color: Colors.grey)),
            const SizedBox(height: 20),
            Row(
              mainAxisAlignment: MainAxisAlignment.spaceEvenly,
              children: const [
                Column(children: [Text('128', style: TextStyle(fontSize: 18)), Text('Posts')]),
                Column(children: [Text('4.2k', style: TextStyle(fontSize: 18)), Text('Followers')]),
                Column(children: [Text('310', style: TextStyle(fontSize: 18)), Text('Following')]),
              ],
            ),
            const SizedBox(height: 20),
            SizedBox(
              width: double.infinity,
              child: OutlinedButton(
                onPressed: () => Navigator.pushNamed(context, '/profile/edit'),
                child: const Text('Edit profile'),
              ),
            ),
          ],
        ),
      ),
    );
  }
}
