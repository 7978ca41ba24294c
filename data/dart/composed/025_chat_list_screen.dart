import 'package:flutter/material.dart';

class ChatListScreen extends StatelessWidget {
  const ChatListScreen({super.key});

  static const names = ['Priya', 'Jonas', 'Lena', 'Omar', 'Keiko'];
  static const previews = ['See you at 6', 'Sent a photo', 'Thanks!', 'Call me back', 'Lunch?'];

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        title: const Text('Chats'),
        actions: [
          IconButton(icon: const Icon(Icons.search), onPressed: () {}),
        ],
      ),
      body: ListView.separated(
        itemCount: names.length,
        separatorBuilder: (context, index) => const Divider(height: 1),
        itemBuilder: (context, index) => ListTile(
          leading: CircleAvatar(child: Text(names[index][0])),
          title: Text(names[index]),
          subtitle: Text(previews[index]),
          trailing: const Text('09:41', style: TextStyle(fontSize: 12)),
          onTap: () => Navigator.pushNamed(context, '/chat', arguments: names[index]),
        ),
      ),
      floatingActionButton: FloatingActionButton(
        onPressed: () => Navigator.pushNamed(context, '/chat/new'),
        child: const Icon(Icons.edit),
      ),
    );
  }
}
