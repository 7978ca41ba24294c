import 'package:flutter/material.dart';

void main() => runApp(const FitnessApp());

enum WorkoutType { run, ride, swim, lift }

class Workout {
  const Workout(this.type, this.minutes, this.calories);

  final WorkoutType type;
  final int minutes;
  final int calories;
}

IconData iconFor(WorkoutType type) {
  switch (type) {
    case WorkoutType.run:
      return Icons.directions_run;
    case WorkoutType.ride:
      return Icons.directions_bike;
    case WorkoutType.swim:
      return Icons.pool;
    case WorkoutType.lift:
      return Icons.fitness_center;
  }
}

class FitnessApp extends StatelessWidget {
  const FitnessApp({super.key});

  @override
  Widget build(BuildContext context) {
    return MaterialApp(
      title: 'Pulse',
      theme: ThemeData(colorSchemeSeed: Colors.red, brightness: Brightness.dark),
      routes: {
        '/': (context) => const HomeScreen(),
        '/log': (context) => const LogWorkoutScreen(),
        '/goals': (context) => const GoalsScreen(),
      },
    );
  }
}

class HomeScreen extends StatefulWidget {
  const HomeScreen({super.key});

  @override
  State<HomeScreen> createState() => _HomeScreenState();
}

class _HomeScreenState extends State<HomeScreen> {
  final List<Workout> _workouts = [
    const Workout(WorkoutType.run, 32, 340),
    const Workout(WorkoutType.lift, 45, 210),
  ];
  int _dailyGoal = 600;

  int get _burned => _workouts.fold(0, (sum, w) => sum + w.calories);

  Future<void> _logWorkout() async {
    final result = await Navigator.pushNamed(context, '/log');
    if (result is Workout) {
      setState(() => _workouts.add(result));
    }
  }

  @override
  Widget build(BuildContext context) {
    final progress = (_burned / _dailyGoal).clamp(0.0, 1.0);
    return Scaffold(
      appBar: AppBar(
        title: const Text('Today'),
        actions: [
          IconButton(
            icon: const Icon(Icons.flag),
            onPressed: () async {
              final goal = await Navigator.pushNamed(context, '/goals');
              if (goal is int) setState(() => _dailyGoal = goal);
            },
          ),
        ],
      ),
      body: Column(
        children: [
          Padding(
            padding: const EdgeInsets.all(24),
            child: Stack(
              alignment: Alignment.center,
              children: [
                SizedBox(
                  width: 160,
                  height: 160,
                  child: CircularProgressIndicator(value: progress, strokeWidth: 12),
                ),
                Text('$_burned / $_dailyGoal kcal', style: const TextStyle(fontSize: 16)),
              ],
            ),
          ),
          Expanded(
            child: ListView.builder(
              itemCount: _workouts.length,
              itemBuilder: (context, i) {
                final w = _workouts[i];
                return Dismissible(
                  key: ValueKey('$i-${w.type.name}'),
                  onDismissed: (_) => setState(() => _workouts.removeAt(i)),
                  child: ListTile(
                    leading: Icon(iconFor(w.type)),
                    title: Text(w.type.name.toUpperCase()),
                    subtitle: Text('${w.minutes} min'),
                    trailing: Text('${w.calories} kcal'),
                  ),
                );
              },
            ),
          ),
        ],
      ),
      floatingActionButton: FloatingActionButton.extended(
        onPressed: _logWorkout,
        icon: const Icon(Icons.add),
        label: const Text('Log workout'),
      ),
    );
  }
}

class LogWorkoutScreen extends StatefulWidget {
  const LogWorkoutScreen({super.key});

  @override
  State<LogWorkoutScreen> createState() => _LogWorkoutScreenState();
}

class _LogWorkoutScreenState extends State<LogWorkoutScreen> {
  WorkoutType _type = WorkoutType.run;
  double _minutes = 30;

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Log workout')),
      body: Padding(
        padding: const EdgeInsets.all(20),
        child: Column(
          children: [
            SegmentedButton<WorkoutType>(
              segments: [
                for (final t in WorkoutType.values)
                  ButtonSegment(value: t, icon: Icon(iconFor(t)), label: Text(t.name)),
              ],
              selected: {_type},
              onSelectionChanged: (s) => setState(() => _type = s.first),
            ),
            const SizedBox(height: 24),
            Text('${_minutes.round()} minutes'),
            Slider(
              value: _minutes,
              min: 5,
              max: 180,
              divisions: 35,
              onChanged: (v) => setState(() => _minutes = v),
            ),
            const Spacer(),
            FilledButton(
              onPressed: () => Navigator.pop(
                context,
                Workout(_type, _minutes.round(), (_minutes * 9).round()),
              ),
              child: const Text('Save'),
            ),
          ],
        ),
      ),
    );
  }
}

class GoalsScreen extends StatelessWidget {
  const GoalsScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Daily goal')),
      body: ListView(
        children: [
          for (final kcal in [400, 600, 800, 1000])
            ListTile(
              title: Text('$kcal kcal'),
              onTap: () => Navigator.pop(context, kcal),
            ),
        ],
      ),
    );
  }
}
