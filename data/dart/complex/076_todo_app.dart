import 'package:flutter/material.dart';

void main() => runApp(const TodoApp());

enum Priority { low, normal, high }

class Task {
  Task({required this.title, this.priority = Priority.normal, this.done = false, this.notes = ''});

  String title;
  Priority priority;
  bool done;
  String notes;
}

class TodoApp extends StatelessWidget {
  const TodoApp({super.key});

  @override
  Widget build(BuildContext context) {
    return MaterialApp(
      title: 'Checkmate',
      theme: ThemeData(colorSchemeSeed: Colors.green),
      home: const TaskListScreen(),
    );
  }
}

class TaskListScreen extends StatefulWidget {
  const TaskListScreen({super.key});

  @override
  State<TaskListScreen> createState() => _TaskListScreenState();
}

class _TaskListScreenState extends State<TaskListScreen> {
  final List<Task> _tasks = [
    Task(title: 'Renew passport', priority: Priority.high),
    Task(title: 'Water the ficus'),
    Task(title: 'Sort receipts', priority: Priority.low, done: true),
  ];
  bool _hideDone = false;

  Color _priorityColor(Priority p) {
    switch (p) {
      case Priority.high:
        return Colors.red;
      case Priority.normal:
        return Colors.orange;
      case Priority.low:
        return Colors.grey;
    }
  }

  Future<void> _edit(Task? task) async {
    final result = await Navigator.push<Task>(
      context,
      MaterialPageRoute(builder: (context) => TaskEditorScreen(task: task)),
    );
    if (result == null) return;
    setState(() {
      if (task == null) {
        _tasks.add(result);
      }
    });
  }

  @override
  Widget build(BuildContext context) {
    final visible = _hideDone ? _tasks.where((t) => !t.done).toList() : _tasks;
    return Scaffold(
      appBar: AppBar(
        title: Text('Tasks (${_tasks.where((t) => !t.done).length} open)'),
        actions: [
          IconButton(
            icon: Icon(_hideDone ? Icons.visibility : Icons.visibility_off),
            tooltip: 'Toggle completed',
            onPressed: () => setState(() => _hideDone = !_hideDone),
          ),
        ],
      ),
      body: visible.isEmpty
          ? const Center(child: Text('All clear 🎉'))
          : ListView.builder(
              itemCount: visible.length,
              itemBuilder: (context, i) {
                final task = visible[i];
                return CheckboxListTile(
                  value: task.done,
                  onChanged: (v) => setState(() => task.done = v ?? false),
                  title: Text(
                    task.title,
                    style: TextStyle(decoration: task.done ? TextDecoration.lineThrough : null),
                  ),
                  secondary: Icon(Icons.circle, size: 12, color: _priorityColor(task.priority)),
                  subtitle: task.notes.isEmpty ? null : Text(task.notes),
                );
              },
            ),
      floatingActionButton: FloatingActionButton(
        onPressed: () => _edit(null),
        child: const Icon(Icons.add),
      ),
    );
  }
}

class TaskEditorScreen extends StatefulWidget {
  const TaskEditorScreen({super.key, this.task});

  final Task? task;

  @override
  State<TaskEditorScreen> createState() => _TaskEditorScreenState();
}

class _TaskEditorScreenState extends State<TaskEditorScreen> {
  late final TextEditingController _title = TextEditingController(text: widget.task?.title ?? '');
  late final TextEditingController _notes = TextEditingController(text: widget.task?.notes ?? '');
  late Priority _priority = widget.task?.priority ?? Priority.normal;

  @override
  void dispose() {
    _title.dispose();
    _notes.dispose();
    super.dispose();
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: Text(widget.task == null ? 'New task' : 'Edit task')),
      body: ListView(
        padding: const EdgeInsets.all(16),
        children: [
          TextField(controller: _title, decoration: const InputDecoration(labelText: 'Title')),
          const SizedBox(height: 12),
          TextField(
            controller: _notes,
            maxLines: 3,
            decoration: const InputDecoration(labelText: 'Notes'),
          ),
          const SizedBox(height: 12),
          for (final p in Priority.values)
            RadioListTile<Priority>(
              value: p,
              groupValue: _priority,
              title: Text(p.name),
              onChanged: (v) => setState(() => _priority = v ?? Priority.normal),
            ),
          const SizedBox(height: 20),
          ElevatedButton(
            onPressed: _title.text.isEmpty && widget.task == null
                ? null
                : () => Navigator.pop(
                      context,
                      Task(title: _title.text, notes: _notes.text, priority: _priority),
                    ),
            child: const Text('Save task'),
          ),
        ],
      ),
    );
  }
}
