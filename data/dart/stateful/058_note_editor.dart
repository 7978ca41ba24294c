import 'package:flutter/material.dart';

class NoteEditor extends StatefulWidget {
  const NoteEditor({super.key, this.initialText = ''});

  final String initialText;

  @override
  State<NoteEditor> createState() => _NoteEditorState();
}

class _NoteEditorState extends State<NoteEditor> {
  late final TextEditingController _textController;
  bool _dirty = false;

  @override
  void initState() {
    super.initState();
    _textController = TextEditingController(text: widget.initialText);
  }

  @override
  void dispose() {
    _textController.dispose();
    super.dispose();
  }

  void _save() {
    setState(() => _dirty = false);
    Navigator.pop(context, _textController.text);
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        title: Text(_dirty ? 'Edit note *' : 'Edit note'),
        actions: [
          IconButton(icon: const Icon(Icons.check), onPressed: _dirty ? _save : null),
        ],
      ),
      body: Padding(
        padding: const EdgeInsets.all(12),
        child: TextField(
          controller: _textController,
          maxLines: null,
          expands: true,
          decoration: const InputDecoration(labelText: 'Note', border: InputBorder.none),
          onChanged: (_) => setState(() => _dirty = true),
        ),
      ),
    );
  }
}
