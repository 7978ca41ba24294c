import 'package:flutter/material.dart';

void main() => runApp(const ChatApp());

class Message {
  Message({required this.author, required this.text, required this.sentAt, this.read = false});

  final String author;
  final String text;
  final DateTime sentAt;
  bool read;
}

class Conversation {
  Conversation({required this.title, required this.messages, this.muted = false});

  final String title;
  final List<Message> messages;
  bool muted;

  int get unread => messages.where((m) => !m.read && m.author != 'me').length;
}

final conversations = [
  Conversation(title: 'Climbing crew', messages: [
    Message(author: 'Ines', text: 'Gym at 7?', sentAt: DateTime(2024, 5, 3, 17, 2)),
    Message(author: 'me', text: 'In!', sentAt: DateTime(2024, 5, 3, 17, 5), read: true),
  ]),
  Conversation(title: 'Mum', messages: [
    Message(author: 'Mum', text: 'Did you eat?', sentAt: DateTime(2024, 5, 3, 12, 40)),
  ]),
];

class ChatApp extends StatelessWidget {
  const ChatApp({super.key});

  @override
  Widget build(BuildContext context) {
    return MaterialApp(
      title: 'Parley',
      theme: ThemeData(primarySwatch: Colors.indigo),
      home: const ConversationsScreen(),
      routes: {
        '/settings': (context) => const ChatSettingsScreen(),
      },
    );
  }
}

class ConversationsScreen extends StatefulWidget {
  const ConversationsScreen({super.key});

  @override
  State<ConversationsScreen> createState() => _ConversationsScreenState();
}

class _ConversationsScreenState extends State<ConversationsScreen> {
  Future<void> _open(Conversation conversation) async {
    await Navigator.push(
      context,
      MaterialPageRoute(builder: (context) => ThreadScreen(conversation: conversation)),
    );
    setState(() {
      for (final m in conversation.messages) {
        m.read = true;
      }
    });
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        title: const Text('Parley'),
        actions: [
          IconButton(
            icon: const Icon(Icons.settings),
            onPressed: () => Navigator.pushNamed(context, '/settings'),
          ),
        ],
      ),
      body: ListView.builder(
        itemCount: conversations.length,
        itemBuilder: (context, i) {
          final c = conversations[i];
          return ListTile(
            leading: CircleAvatar(child: Text(c.title.substring(0, 1))),
            title: Text(c.title),
            subtitle: Text(c.messages.last.text, maxLines: 1),
            trailing: c.unread > 0
                ? CircleAvatar(radius: 11, child: Text('${c.unread}', style: const TextStyle(fontSize: 11)))
                : (c.muted ? const Icon(Icons.volume_off, size: 18) : null),
            onTap: () => _open(c),
            onLongPress: () => setState(() => c.muted = !c.muted),
          );
        },
      ),
    );
  }
}

class ThreadScreen extends StatefulWidget {
  const ThreadScreen({super.key, required this.conversation});

  final Conversation conversation;

  @override
  State<ThreadScreen> createState() => _ThreadScreenState();
}

class _ThreadScreenState extends State<ThreadScreen> {
  final _input = TextEditingController();

  @override
  void dispose() {
    _input.dispose();
    super.dispose();
  }

  void _send() {
    if (_input.text.trim().isEmpty) return;
    setState(() {
      widget.conversation.messages.add(
        Message(author: 'me', text: _input.text.trim(), sentAt: DateTime.now(), read: true),
      );
      _input.clear();
    });
  }

  @override
  Widget build(BuildContext context) {
    final messages = widget.conversation.messages;
    return Scaffold(
      appBar: AppBar(title: Text(widget.conversation.title)),
      body: Column(
        children: [
          Expanded(
            child: ListView(
              padding: const EdgeInsets.all(12),
              children: [
                for (final m in messages)
                  Align(
                    alignment: m.author == 'me' ? Alignment.centerRight : Alignment.centerLeft,
                    child: Card(
                      color: m.author == 'me' ? Colors.indigo.shade50 : Colors.white,
                      child: Padding(
                        padding: const EdgeInsets.all(10),
                        child: Column(
                          crossAxisAlignment: CrossAxisAlignment.start,
                          children: [
                            if (m.author != 'me')
                              Text(m.author, style: const TextStyle(fontWeight: FontWeight.bold)),
                            Text(m.text),
                            Text(
                              '${m.sentAt.hour}:${m.sentAt.minute.toString().padLeft(2, '0')}',
                              style: const TextStyle(fontSize: 10, color: Colors.grey),
                            ),
                          ],
                        ),
                      ),
                    ),
                  ),
              ],
            ),
          ),
          SafeArea(
            child: Row(
              children: [
                Expanded(
                  child: TextField(
                    controller: _input,
                    decoration: const InputDecoration(hintText: 'Write a message…'),
                  ),
                ),
                IconButton(icon: const Icon(Icons.send), onPressed: _send),
              ],
            ),
          ),
        ],
      ),
    );
  }
}

class ChatSettingsScreen extends StatelessWidget {
  const ChatSettingsScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Chat settings')),
      body: ListView(
        children: const [
          ListTile(title: Text('Read receipts'), trailing: Icon(Icons.check)),
          ListTile(title: Text('Media auto-download'), subtitle: Text('Wi-Fi only')),
          ListTile(title: Text('Chat backup'), subtitle: Text('Last backup: 02:00')),
        ],
      ),
    );
  }
}
