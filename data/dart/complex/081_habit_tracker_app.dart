import 'package:flutter/material.dart';

void main() => runApp(const HabitApp());

class Habit {
  Habit(this.name, this.icon, {List<bool>? week}) : week = week ?? List.filled(7, false);

  final String name;
  final IconData icon;
  final List<bool> week;

  int get streak {
    var count = 0;
    for (var i = week.length - 1; i >= 0 && week[i]; i--) {
      count++;
    }
    return count;
  }
}

const weekdays = ['M', 'T', 'W', 'T', 'F', 'S', 'S'];

class HabitApp extends StatelessWidget {
  const HabitApp({super.key});

  @override
  Widget build(BuildContext context) {
    return MaterialApp(
      title: 'Streaks',
      theme: ThemeData(colorSchemeSeed: Colors.purple),
      home: const HabitsScreen(),
      routes: {'/stats': (context) => const StatsScreen()},
    );
  }
}

final habits = [
  Habit('Meditate', Icons.self_improvement, week: [true, true, false, true, true, true, true]),
  Habit('Read 20 pages', Icons.menu_book),
  Habit('No sugar', Icons.no_food, week: [true, false, false, false, true, true, false]),
];

class HabitsScreen extends StatefulWidget {
  const HabitsScreen({super.key});

  @override
  State<HabitsScreen> createState() => _HabitsScreenState();
}

class _HabitsScreenState extends State<HabitsScreen> {
  Future<void> _addHabit() async {
    final name = await Navigator.push<String>(
      context,
      MaterialPageRoute(builder: (_) => const NewHabitScreen()),
    );
    if (name != null && name.isNotEmpty) {
      setState(() => habits.add(Habit(name, Icons.star_outline)));
    }
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        title: const Text('This week'),
        actions: [
          IconButton(
            icon: const Icon(Icons.insights),
            onPressed: () => Navigator.pushNamed(context, '/stats'),
          ),
        ],
      ),
      body: ListView(
        padding: const EdgeInsets.all(12),
        children: [
          for (final habit in habits)
            Card(
              child: Padding(
                padding: const EdgeInsets.all(12),
                child: Column(
                  crossAxisAlignment: CrossAxisAlignment.start,
                  children: [
                    Row(
                      children: [
                        Icon(habit.icon, color: Colors.purple),
                        const SizedBox(width: 8),
                        Expanded(child: Text(habit.name, style: const TextStyle(fontSize: 17))),
                        Text('🔥 ${habit.streak}'),
                      ],
                    ),
                    const SizedBox(height: 8),
                    Row(
                      mainAxisAlignment: MainAxisAlignment.spaceBetween,
                      children: [
                        for (var d = 0; d < 7; d++)
                          GestureDetector(
                            onTap: () => setState(() => habit.week[d] = !habit.week[d]),
                            child: CircleAvatar(
                              radius: 16,
                              backgroundColor: habit.week[d] ? Colors.purple : Colors.grey.shade300,
                              child: Text(weekdays[d], style: const TextStyle(fontSize: 12)),
                            ),
                          ),
                      ],
                    ),
                  ],
                ),
              ),
            ),
        ],
      ),
      floatingActionButton: FloatingActionButton(onPressed: _addHabit, child: const Icon(Icons.add)),
    );
  }
}

class NewHabitScreen extends StatefulWidget {
  const NewHabitScreen({super.key});

  @override
  State<NewHabitScreen> createState() => _NewHabitScreenState();
}

class _NewHabitScreenState extends State<NewHabitScreen> {
  final _name = TextEditingController();

  @override
  void dispose() {
    _name.dispose();
    super.dispose();
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('New habit')),
      body: Padding(
        padding: const EdgeInsets.all(20),
        child: Column(
          children: [
            TextField(controller: _name, decoration: const InputDecoration(labelText: 'Habit name')),
            const SizedBox(height: 20),
            FilledButton(
              onPressed: () => Navigator.pop(context, _name.text.trim()),
              child: const Text('Add habit'),
            ),
          ],
        ),
      ),
    );
  }
}

class StatsScreen extends StatelessWidget {
  const StatsScreen({super.key});

  @override
  Widget build(BuildContext context) {
    final total = habits.fold<int>(0, (s, h) => s + h.week.where((d) => d).length);
    return Scaffold(
      appBar: AppBar(title: const Text('Stats')),
      body: Center(
        child: Text('$total check-ins of ${habits.length * 7}', style: const TextStyle(fontSize: 24)),
      ),
    );
  }
}
