import 'package:flutter/material.dart';

void main() => runApp(const SmartHomeApp());

class Device {
  Device({required this.name, required this.room, required this.kind, this.on = false, this.level = 0.5});

  final String name;
  final String room;
  final String kind;
  bool on;
  double level;
}

final devices = [
  Device(name: 'Ceiling light', room: 'Living room', kind: 'light', on: true, level: 0.8),
  Device(name: 'Floor lamp', room: 'Living room', kind: 'light'),
  Device(name: 'Thermostat', room: 'Hallway', kind: 'climate', on: true, level: 0.42),
  Device(name: 'Blinds', room: 'Bedroom', kind: 'cover', level: 1.0),
  Device(name: 'Speaker', room: 'Kitchen', kind: 'media'),
];

IconData iconOf(String kind) {
  return switch (kind) {
    'light' => Icons.lightbulb,
    'climate' => Icons.thermostat,
    'cover' => Icons.blinds,
    _ => Icons.speaker,
  };
}

class SmartHomeApp extends StatelessWidget {
  const SmartHomeApp({super.key});

  @override
  Widget build(BuildContext context) {
    return MaterialApp(
      title: 'Nest Egg',
      theme: ThemeData(colorSchemeSeed: Colors.lime),
      initialRoute: '/rooms',
      routes: {
        '/rooms': (context) => const RoomsScreen(),
        '/scenes': (context) => const ScenesScreen(),
      },
    );
  }
}

class RoomsScreen extends StatefulWidget {
  const RoomsScreen({super.key});

  @override
  State<RoomsScreen> createState() => _RoomsScreenState();
}

class _RoomsScreenState extends State<RoomsScreen> {
  @override
  Widget build(BuildContext context) {
    final rooms = devices.map((d) => d.room).toSet();
    return Scaffold(
      appBar: AppBar(
        title: const Text('Home'),
        actions: [
          TextButton(
            onPressed: () => Navigator.pushNamed(context, '/scenes'),
            child: const Text('Scenes'),
          ),
        ],
      ),
      body: GridView.count(
        crossAxisCount: 2,
        padding: const EdgeInsets.all(16),
        mainAxisSpacing: 12,
        crossAxisSpacing: 12,
        children: [
          for (final room in rooms)
            InkWell(
              borderRadius: BorderRadius.circular(16),
              onTap: () async {
                await Navigator.push(
                  context,
                  MaterialPageRoute(builder: (_) => RoomScreen(room: room)),
                );
                setState(() {});
              },
              child: Ink(
                decoration: BoxDecoration(
                  color: Colors.lime.shade100,
                  borderRadius: BorderRadius.circular(16),
                ),
                child: Center(
                  child: Text(
                    '$room\n${devices.where((d) => d.room == room && d.on).length} on',
                    textAlign: TextAlign.center,
                    style: const TextStyle(fontSize: 16),
                  ),
                ),
              ),
            ),
        ],
      ),
    );
  }
}

class RoomScreen extends StatefulWidget {
  const RoomScreen({super.key, required this.room});

  final String room;

  @override
  State<RoomScreen> createState() => _RoomScreenState();
}

class _RoomScreenState extends State<RoomScreen> {
  @override
  Widget build(BuildContext context) {
    final inRoom = devices.where((d) => d.room == widget.room).toList();
    return Scaffold(
      appBar: AppBar(title: Text(widget.room)),
      body: ListView(
        children: [
          for (final device in inRoom)
            Card(
              margin: const EdgeInsets.all(10),
              child: Column(
                children: [
                  SwitchListTile(
                    secondary: Icon(iconOf(device.kind), color: device.on ? Colors.lime.shade800 : Colors.grey),
                    title: Text(device.name),
                    value: device.on,
                    onChanged: (v) => setState(() => device.on = v),
                  ),
                  if (device.on && device.kind != 'media')
                    Slider(
                      value: device.level,
                      onChanged: (v) => setState(() => device.level = v),
                    ),
                ],
              ),
            ),
        ],
      ),
    );
  }
}

class ScenesScreen extends StatelessWidget {
  const ScenesScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Scenes')),
      body: ListView(
        children: [
          ListTile(
            leading: const Icon(Icons.bedtime),
            title: const Text('Good night'),
            subtitle: const Text('All lights off, blinds down'),
            onTap: () {
              for (final d in devices) {
                if (d.kind == 'light') d.on = false;
                if (d.kind == 'cover') d.level = 0;
              }
              Navigator.pop(context);
            },
          ),
          ListTile(
            leading: const Icon(Icons.movie),
            title: const Text('Movie time'),
            subtitle: const Text('Dim lights to 20%'),
            onTap: () {
              for (final d in devices.where((d) => d.kind == 'light')) {
                d
                  ..on = true
                  ..level = 0.2;
              }
              Navigator.pop(context);
            },
          ),
        ],
      ),
    );
  }
}
