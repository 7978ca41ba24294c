import 'package:flutter/material.dart';

void main() => runApp(const RecipeApp());

class Recipe {
  const Recipe(this.name, this.minutes, this.vegetarian, this.steps, this.ingredients);

  final String name;
  final int minutes;
  final bool vegetarian;
  final List<String> steps;
  final Map<String, String> ingredients;
}

const recipes = [
  Recipe('Shakshuka', 30, true, [
    'Sauté onion and peppers.',
    'Add tomatoes and spices, simmer 10 minutes.',
    'Crack eggs into wells and cover until set.',
  ], {'eggs': '4', 'tomatoes': '400 g', 'red pepper': '1', 'cumin': '1 tsp'}),
  Recipe('Chicken katsu', 45, false, [
    'Flatten and bread the chicken.',
    'Fry until golden, about 4 minutes per side.',
    'Serve with curry sauce and rice.',
  ], {'chicken breast': '2', 'panko': '100 g', 'flour': '50 g', 'egg': '1'}),
  Recipe('Lentil soup', 40, true, [
    'Soften carrot, celery and onion.',
    'Add lentils and stock, simmer 25 minutes.',
  ], {'red lentils': '250 g', 'stock': '1 l', 'carrot': '2'}),
];

class RecipeApp extends StatelessWidget {
  const RecipeApp({super.key});

  @override
  Widget build(BuildContext context) {
    return MaterialApp(
      title: 'Pantry',
      theme: ThemeData(colorSchemeSeed: Colors.deepOrange),
      home: const RecipeListScreen(),
    );
  }
}

class RecipeListScreen extends StatefulWidget {
  const RecipeListScreen({super.key});

  @override
  State<RecipeListScreen> createState() => _RecipeListScreenState();
}

class _RecipeListScreenState extends State<RecipeListScreen> {
  bool _vegOnly = false;
  int _maxMinutes = 60;

  @override
  Widget build(BuildContext context) {
    final shown = recipes.where((r) => (!_vegOnly || r.vegetarian) && r.minutes <= _maxMinutes).toList();
    return Scaffold(
      appBar: AppBar(title: const Text('Recipes')),
      body: Column(
        children: [
          SwitchListTile(
            title: const Text('Vegetarian only'),
            value: _vegOnly,
            onChanged: (v) => setState(() => _vegOnly = v),
          ),
          ListTile(
            title: Text('Ready in $_maxMinutes min or less'),
            subtitle: Slider(
              value: _maxMinutes.toDouble(),
              min: 15,
              max: 90,
              divisions: 5,
              onChanged: (v) => setState(() => _maxMinutes = v.round()),
            ),
          ),
          const Divider(),
          Expanded(
            child: shown.isEmpty
                ? const Center(child: Text('No recipe matches'))
                : ListView.builder(
                    itemCount: shown.length,
                    itemBuilder: (context, i) => ListTile(
                      leading: Icon(shown[i].vegetarian ? Icons.eco : Icons.restaurant),
                      title: Text(shown[i].name),
                      subtitle: Text('${shown[i].minutes} min'),
                      onTap: () => Navigator.push(
                        context,
                        MaterialPageRoute(builder: (_) => RecipeScreen(recipe: shown[i])),
                      ),
                    ),
                  ),
          ),
        ],
      ),
    );
  }
}

class RecipeScreen extends StatefulWidget {
  const RecipeScreen({super.key, required this.recipe});

  final Recipe recipe;

  @override
  State<RecipeScreen> createState() => _RecipeScreenState();
}

class _RecipeScreenState extends State<RecipeScreen> {
  int _step = 0;

  @override
  Widget build(BuildContext context) {
    final recipe = widget.recipe;
    return Scaffold(
      appBar: AppBar(title: Text(recipe.name)),
      body: ListView(
        padding: const EdgeInsets.all(16),
        children: [
          const Text('Ingredients', style: TextStyle(fontSize: 20)),
          for (final entry in recipe.ingredients.entries)
            ListTile(dense: true, title: Text(entry.key), trailing: Text(entry.value)),
          const SizedBox(height: 16),
          Stepper(
            physics: const NeverScrollableScrollPhysics(),
            currentStep: _step,
            onStepTapped: (i) => setState(() => _step = i),
            onStepContinue: _step < recipe.steps.length - 1 ? () => setState(() => _step++) : null,
            onStepCancel: _step > 0 ? () => setState(() => _step--) : null,
            steps: [
              for (var i = 0; i < recipe.steps.length; i++)
                Step(title: Text('Step ${i + 1}'), content: Text(recipe.steps[i]), isActive: i <= _step),
            ],
          ),
          ElevatedButton.icon(
            onPressed: () => Navigator.push(
              context,
              MaterialPageRoute(builder: (_) => TimerScreen(minutes: recipe.minutes)),
            ),
            icon: const Icon(Icons.timer),
            label: const Text('Start kitchen timer'),
          ),
        ],
      ),
    );
  }
}

class TimerScreen extends StatelessWidget {
  const TimerScreen({super.key, required this.minutes});

  final int minutes;

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Timer')),
      body: Center(child: Text('$minutes:00', style: const TextStyle(fontSize: 80))),
    );
  }
}
