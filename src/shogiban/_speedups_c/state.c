/*
 * shogiban._speedups: the types PositionState and BoardState (see state.h): their fields as
 * member descriptors, garbage-collector support, and their type specs.  Their methods (_push,
 * _pop, push, pop) are in pushpop.c.
 */

#include "pushpop.h"

#define FIELD(type, name, member, doc) {name, MEMBER_OBJECT, offsetof(type, member), 0, PyDoc_STR(doc)}

static PyMemberDef position_members[] = {
    FIELD(PositionState, "_board", board, "piece code of each square 0..80"),
    FIELD(PositionState, "_bb", bb, "bitboard of each piece code"),
    FIELD(PositionState, "_occ", occ, "bitboard of each colour's pieces"),
    FIELD(PositionState, "_kings", kings, "king square of each colour, -1 for none"),
    FIELD(PositionState, "_hands", hands, "count of each piece type in each colour's hand"),
    FIELD(PositionState, "_turn", turn, "side to move: 0 sente, 1 gote"),
    FIELD(PositionState, "_stack", stack, "(move code, captured piece code, key before) per move played"),
    FIELD(PositionState, "_hash", hash, "Zobrist key of board, hands and side to move"),
    FIELD(PositionState, "_rep", rep, "how often each key has occurred since the stack began"),
    {NULL, 0, 0, 0, NULL},
};

static PyMemberDef board_members[] = {
    FIELD(BoardState, "_ending", ending, "the recorded game end (illegal move, declaration, impasse) or None"),
    {NULL, 0, 0, 0, NULL},
};

/* tp_new: an instance with its fields unset (as __slots__ leave them) and its module's state. */
static PyObject *position_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *module = PyType_GetModuleByDef(type, &module_def), *self;
    (void)args;
    (void)kwds;
    if (module == NULL)
        return NULL;
    self = type->tp_alloc(type, 0);
    if (self != NULL)
        ((PositionState *)self)->module_state = module_state(module);
    return self;
}

static int position_traverse(PyObject *self, visitproc visit, void *arg)
{
    PositionState *p = (PositionState *)self;
    Py_VISIT(Py_TYPE(self)); /* instances of a heap type hold a reference to it */
    Py_VISIT(p->board);
    Py_VISIT(p->bb);
    Py_VISIT(p->occ);
    Py_VISIT(p->kings);
    Py_VISIT(p->hands);
    Py_VISIT(p->turn);
    Py_VISIT(p->stack);
    Py_VISIT(p->hash);
    Py_VISIT(p->rep);
    return 0;
}

static int position_clear(PyObject *self)
{
    PositionState *p = (PositionState *)self;
    Py_CLEAR(p->board);
    Py_CLEAR(p->bb);
    Py_CLEAR(p->occ);
    Py_CLEAR(p->kings);
    Py_CLEAR(p->hands);
    Py_CLEAR(p->turn);
    Py_CLEAR(p->stack);
    Py_CLEAR(p->hash);
    Py_CLEAR(p->rep);
    return 0;
}

static void position_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    position_clear(self);
    type->tp_free(self);
    Py_DECREF(type);
}

static int board_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(((BoardState *)self)->ending);
    return position_traverse(self, visit, arg);
}

static int board_clear(PyObject *self)
{
    Py_CLEAR(((BoardState *)self)->ending);
    return position_clear(self);
}

static void board_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    board_clear(self);
    type->tp_free(self);
    Py_DECREF(type);
}

#define FLAGS (Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE)

static PyType_Slot position_slots[] = {
    {Py_tp_doc, (void *)PyDoc_STR("The fields of a shogiban Position, owned by the compiled module; the base of "
                                  "shogiban.position.Position.")},
    {Py_tp_members, position_members},
    {Py_tp_methods, position_methods},
    {Py_tp_new, position_new},
    {Py_tp_traverse, position_traverse},
    {Py_tp_clear, position_clear},
    {Py_tp_dealloc, position_dealloc},
    {0, NULL},
};

PyType_Spec position_state_spec = {
    "shogiban._speedups.PositionState", sizeof(PositionState), 0, FLAGS, position_slots,
};

static PyType_Slot board_slots[] = {
    {Py_tp_doc, (void *)PyDoc_STR("PositionState with Board's _ending; the base of shogiban.board.Board.")},
    {Py_tp_members, board_members},
    {Py_tp_methods, board_methods},
    {Py_tp_traverse, board_traverse},
    {Py_tp_clear, board_clear},
    {Py_tp_dealloc, board_dealloc},
    {0, NULL},
};

PyType_Spec board_state_spec = {
    "shogiban._speedups.BoardState", sizeof(BoardState), 0, FLAGS, board_slots,
};
