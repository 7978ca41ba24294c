import 'package:flutter/material.dart';

void main() => runApp(const QuizApp());

class Question {
  const Question(this.prompt, this.options, this.answer);

  final String prompt;
  final List<String> options;
  final int answer;
}

const questions = [
  Question('Which planet has the shortest day?', ['Mars', 'Jupiter', 'Venus', 'Earth'], 1),
  Question('What is the capital of Canada?', ['Toronto', 'Vancouver', 'Ottawa', 'Montreal'], 2),
  Question('How many bones in the adult human body?', ['186', '206', '226', '246'], 1),
  Question('Which element has the symbol K?', ['Krypton', 'Calcium', 'Potassium', 'Kalium'], 2),
];

class QuizApp extends StatelessWidget {
  const QuizApp({super.key});

  @override
  Widget build(BuildContext context) {
    return MaterialApp(
      title: 'Brainy',
      theme: ThemeData(colorSchemeSeed: Colors.amber),
      initialRoute: '/',
      routes: {
        '/': (context) => const StartScreen(),
        '/quiz': (context) => const QuizScreen(),
      },
    );
  }
}

class StartScreen extends StatelessWidget {
  const StartScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      body: Center(
        child: Column(
          mainAxisSize: MainAxisSize.min,
          children: [
            const Icon(Icons.psychology, size: 110, color: Colors.amber),
            const SizedBox(height: 16),
            const Text('Brainy', style: TextStyle(fontSize: 40, fontWeight: FontWeight.w800)),
            Text('${questions.length} questions · no time limit'),
            const SizedBox(height: 32),
            ElevatedButton(
              onPressed: () => Navigator.pushNamed(context, '/quiz'),
              child: const Text('Start quiz'),
            ),
          ],
        ),
      ),
    );
  }
}

class QuizScreen extends StatefulWidget {
  const QuizScreen({super.key});

  @override
  State<QuizScreen> createState() => _QuizScreenState();
}

class _QuizScreenState extends State<QuizScreen> {
  int _current = 0;
  int _score = 0;
  int? _picked;

  void _choose(int option) {
    if (_picked != null) return;
    setState(() {
      _picked = option;
      if (option == questions[_current].answer) _score++;
    });
  }

  void _next() {
    if (_current == questions.length - 1) {
      Navigator.pushReplacement(
        context,
        MaterialPageRoute(builder: (_) => ResultScreen(score: _score, total: questions.length)),
      );
      return;
    }
    setState(() {
      _current++;
      _picked = null;
    });
  }

  Color? _tint(int option) {
    if (_picked == null) return null;
    if (option == questions[_current].answer) return Colors.green.shade200;
    return option == _picked ? Colors.red.shade200 : null;
  }

  @override
  Widget build(BuildContext context) {
    final q = questions[_current];
    return Scaffold(
      appBar: AppBar(title: Text('Question ${_current + 1} of ${questions.length}')),
      body: Padding(
        padding: const EdgeInsets.all(20),
        child: Column(
          crossAxisAlignment: CrossAxisAlignment.stretch,
          children: [
            LinearProgressIndicator(value: (_current + 1) / questions.length),
            const SizedBox(height: 24),
            Text(q.prompt, style: const TextStyle(fontSize: 22)),
            const SizedBox(height: 24),
            for (var i = 0; i < q.options.length; i++)
              Padding(
                padding: const EdgeInsets.only(bottom: 10),
                child: Material(
                  color: _tint(i) ?? Colors.grey.shade100,
                  borderRadius: BorderRadius.circular(10),
                  child: ListTile(title: Text(q.options[i]), onTap: () => _choose(i)),
                ),
              ),
            const Spacer(),
            ElevatedButton(
              onPressed: _picked == null ? null : _next,
              child: Text(_current == questions.length - 1 ? 'See result' : 'Next'),
            ),
          ],
        ),
      ),
    );
  }
}

class ResultScreen extends StatelessWidget {
  const ResultScreen({super.key, required this.score, required this.total});

  final int score;
  final int total;

  String get verdict {
    final ratio = score / total;
    if (ratio == 1) return 'Perfect!';
    if (ratio >= 0.5) return 'Well done';
    return 'Keep practising';
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      body: Center(
        child: Column(
          mainAxisSize: MainAxisSize.min,
          children: [
            Text('$score / $total', style: const TextStyle(fontSize: 64)),
            Text(verdict, style: const TextStyle(fontSize: 22)),
            const SizedBox(height: 24),
            TextButton(
              onPressed: () => Navigator.pushReplacementNamed(context, '/quiz'),
              child: const Text('Try again'),
            ),
          ],
        ),
      ),
    );
  }
}
