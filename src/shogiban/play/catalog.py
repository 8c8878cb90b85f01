"""Message tables of the terminal game and of the explanations the web lessons share.

One dict per language, same keys; :func:`shogiban.play.i18n.translate` falls back to English for a
missing key, and a test checks that every language has every key and the same ``{fields}``.
Shogi terms follow the usage of each language's shogi texts: 二歩/打ち歩詰め/千日手/持将棋 in
Japanese, 二步/打步詰/千日手/持將棋 in Traditional and 二步/打步诘/千日手/持将棋 in Simplified
Chinese.
"""

from __future__ import annotations

_EN: dict[str, str] = {
    # sides and pieces
    "side.shitate": "Shitate (receiver)",
    "side.uwate": "Uwate (giver)",
    "file": "file {file}",
    # board display
    "board.hand": "In hand",
    "board.hand_none": "none",
    "board.turn": "{side} to move",
    "board.move_number": "Move {number}",
    "board.last_move": "Last move: {move}",
    "board.check": "Check!",
    "board.clock": "{side}: {time}",
    "board.byoyomi": "byoyomi {seconds} s",
    "board.in_byoyomi": "in byoyomi",
    # the session
    "game.title": "{black} vs {white}",
    "game.human": "you",
    "game.player": "player {number}",
    "game.engine": "shogiban engine, level {level}",
    "game.start_handicap": "Handicap game ({name}): {uwate} gives the handicap and moves first.",
    "game.prompt": "{side} > ",
    "game.thinking": "{name} is thinking...",
    "game.played": "{side} plays {move}.",
    "game.welcome": "Type a move (7g7f, ７六歩, 76歩, P-7f) or 'help'.",
    "game.declare_possible": "You can declare an entering-king win now: type 'declare'.",
    "game.engine_declares": "{side} declares an entering-king win.",
    "game.engine_error": "The engine failed: {error}",
    "game.after_end": "The game is over. Type 'save FILE' to keep the record, 'board' to see the board, or 'quit'.",
    "game.eof": "Input ended: the game is abandoned.",
    # errors typing a move
    "error.unreadable": "Cannot read {text!r} as a move or a command. Type 'help' to see the move formats.",
    "error.illegal": "Illegal move {move}: {reason}.",
    "error.ambiguous": (
        "{text!r} is ambiguous: it could be {candidates}. Say which one (右, 左, 上, 引, 寄, 直, or the USI "
        "form)."
    ),
    "error.unknown_command": "Unknown command {text!r}. Type 'help' for the commands.",
    "error.not_now": "That is not possible now: the game is over.",
    # commands
    "cmd.undo_done": "Took back {count} move(s).",
    "cmd.undo_none": "There is no move of yours to take back.",
    "cmd.resign_done": "{side} resigns.",
    "cmd.hint": "Hint: {move}",
    "cmd.hint_none": "No hint available: {why}",
    "cmd.hint_no_engine": "no engine is available",
    "cmd.save_done": "Saved the game to {path}.",
    "cmd.save_failed": "Could not save {path}: {error}",
    "cmd.save_usage": "Usage: save FILE (.kif, .kifu, .ki2, .csa, .jkf, .sfen or .usi)",
    "cmd.declare_refused": "You cannot declare a win now: {reason}.",
    "cmd.quit": "Game abandoned.",
    "help.text": (
        "Moves can be typed in any of these notations:\n"
        "  USI:       7g7f, 8h2b+ (promote), P*5e (drop)\n"
        "  Japanese:  ７六歩, 76歩, 同歩, ５五銀打, ２二角成, ５二金右\n"
        "  Western:   P-7f, Bx2b+, S*5e\n"
        "Commands:\n"
        "  undo       take back your last move (and the reply to it)\n"
        "  hint       ask the engine for a suggestion\n"
        "  resign     give up the game\n"
        "  declare    declare an entering-king win (入玉宣言) when the rule allows it\n"
        "  save FILE  save the game (KIF, KI2, CSA, JKF, SFEN or USI by the file's extension)\n"
        "  board      show the board again\n"
        "  help       this text\n"
        "  quit       stop without a result"
    ),
    # why a move is illegal
    "reason.no_piece_in_hand": "there is no {piece} in your hand",
    "reason.occupied_drop": "{square} is occupied: pieces can only be dropped on empty squares",
    "reason.occupied_own": "{square} holds one of your own pieces",
    "reason.dead_piece_drop": "a {piece} dropped on {square} could never move (a piece with no move, 行き所のない駒)",
    "reason.dead_piece_move": "a {piece} on {square} could never move again, so it must promote",
    "reason.nifu": "two pawns on {file} (二歩): you already have an unpromoted pawn on that file",
    "reason.uchifuzume": "dropping a pawn to give checkmate is forbidden (打ち歩詰め)",
    "reason.no_piece": "there is no piece on {from_square}",
    "reason.not_your_piece": "the piece on {from_square} belongs to your opponent",
    "reason.bad_piece_move": "a {piece} on {from_square} cannot move to {square}",
    "reason.cannot_promote_kind": "a {piece} cannot promote",
    "reason.cannot_promote_zone": "neither {from_square} nor {square} is in the promotion zone (the three far ranks)",
    "reason.self_check": "it would leave your king in check",
    "reason.game_over": "the game is already over",
    "reason.illegal": "the rules do not allow it",
    # declaration (入玉宣言) refusals
    "declare.no_rule": "no entering-king rule is in force",
    "declare.king_not_in_camp": "your king is not in the enemy camp",
    "declare.in_check": "your king is in check",
    "declare.too_few_pieces": "you have only {pieces} pieces in the enemy camp (10 are needed)",
    "declare.too_few_points": "you have {points} points ({need} are needed)",
    # how the game ended
    "end.checkmate": "Checkmate: {loser}'s king cannot escape. {winner} wins.",
    "end.no_legal_moves": "{loser} has no legal move, which loses in shogi. {winner} wins.",
    "end.repetition": "The same position occurred four times (千日手, sennichite): the game is a draw.",
    "end.perpetual_check": (
        "The same position occurred four times while {loser} gave check with every move (perpetual "
        "check): {loser} loses. {winner} wins."
    ),
    "end.entering_king_win": "{winner} declared an entering-king win (入玉宣言) with {points} points. {winner} wins.",
    "end.entering_king_draw": (
        "{side} declared with {points} points: under the 24-point rule that is a draw (持将棋, jishogi)."
    ),
    "end.impasse": (
        "Impasse (持将棋) settled by counting: Sente {black_points} points, Gote {white_points} points. "
        "{result}"
    ),
    "end.impasse_draw": "Both have 24 points or more: a draw.",
    "end.impasse_win": "{winner} wins.",
    "end.max_moves": "The move limit was reached: the game is a draw.",
    "end.illegal_move": "{loser} played an illegal move ({detail}) and loses. {winner} wins.",
    "end.resignation": "{loser} resigned. {winner} wins.",
    "end.time_forfeit": "{loser} ran out of time. {winner} wins.",
    "end.abandoned": "The game was stopped without a result.",
    "learn.declares_yes": "so sente may declare now, and wins.",
    "learn.declares_no": "not enough to declare yet.",
    "learn.ok_refused": "Right, the rules refuse it: {reason}.",
    "learn.refused": "Not allowed: {reason}.",
    "learn.ok_legal": "Good: that move is allowed.",
    "learn.ok_mate": "Checkmate! Well done.",
    "learn.not_mate": "That move is allowed, but it is not checkmate. Try again.",
    "learn.legal_try_refused": "That move is allowed. Now try the forbidden one.",
    "puzzle.not_check": "In a mate problem every attacking move must give check (王手).",
    "puzzle.no_mate": "This check does not lead to mate in {moves}.",
    "puzzle.illegal": "Not allowed: {reason}.",
    "puzzle.correct": "Correct!",
    "puzzle.solved": "Solved: checkmate!",
    "puzzle.unverified": "This move could not be checked in time; try the move you are surest of.",
    "puzzle.moves": "{count} moves",
    "puzzle.group": "Mate in {count}",
    "reason.must_promote": "the {piece} must promote there",
    "reason.cannot_promote_here": "the {piece} cannot promote on that move",
    "reason.no_such_move": "no {piece} of yours can move to {square}",
    "reason.wrong_side": "it is {side}'s turn",
}

_JA: dict[str, str] = {
    "side.shitate": "下手",
    "side.uwate": "上手",
    "file": "{file}筋",
    "board.hand": "持駒",
    "board.hand_none": "なし",
    "board.turn": "{side}の手番",
    "board.move_number": "{number}手目",
    "board.last_move": "直前の指し手：{move}",
    "board.check": "王手！",
    "board.clock": "{side}：{time}",
    "board.byoyomi": "秒読み {seconds} 秒",
    "board.in_byoyomi": "秒読み中",
    "game.title": "{black} 対 {white}",
    "game.human": "あなた",
    "game.player": "対局者{number}",
    "game.engine": "shogiban エンジン（レベル {level}）",
    "game.start_handicap": "駒落ち（{name}）：{uwate}が駒を落とし、先に指します。",
    "game.prompt": "{side} > ",
    "game.thinking": "{name}が考えています…",
    "game.played": "{side}：{move}",
    "game.welcome": "指し手（7g7f、７六歩、76歩、P-7f）か help を入力してください。",
    "game.declare_possible": "いま入玉宣言で勝てます。declare と入力してください。",
    "game.engine_declares": "{side}が入玉宣言をしました。",
    "game.engine_error": "エンジンが異常終了しました：{error}",
    "game.after_end": "対局は終わりました。save ファイル名 で棋譜を保存、board で盤面を表示、quit で終了します。",
    "game.eof": "入力が終わったので対局を中断します。",
    "error.unreadable": "{text!r} は指し手としてもコマンドとしても読めません。help で書き方を確認してください。",
    "error.illegal": "{move} は指せません：{reason}。",
    "error.ambiguous": (
        "{text!r} だけでは決まりません。候補：{candidates}。右・左・上・引・寄・直を付けるか "
        "USI 形式で入力してください。"
    ),
    "error.unknown_command": "{text!r} というコマンドはありません。help でコマンド一覧を表示します。",
    "error.not_now": "対局はすでに終わっています。",
    "cmd.undo_done": "{count}手戻しました。",
    "cmd.undo_none": "戻せる自分の指し手がありません。",
    "cmd.resign_done": "{side}が投了しました。",
    "cmd.hint": "ヒント：{move}",
    "cmd.hint_none": "ヒントを出せません：{why}",
    "cmd.hint_no_engine": "使えるエンジンがありません",
    "cmd.save_done": "棋譜を {path} に保存しました。",
    "cmd.save_failed": "{path} に保存できません：{error}",
    "cmd.save_usage": "使い方：save ファイル名（拡張子 .kif .kifu .ki2 .csa .jkf .sfen .usi）",
    "cmd.declare_refused": "まだ入玉宣言はできません：{reason}。",
    "cmd.quit": "対局を中断しました。",
    "help.text": (
        "指し手は次のどの書き方でも入力できます：\n"
        "  USI 形式：  7g7f、8h2b+（成）、P*5e（打）\n"
        "  日本式：    ７六歩、76歩、同歩、５五銀打、２二角成、５二金右\n"
        "  西洋式：    P-7f、Bx2b+、S*5e\n"
        "コマンド：\n"
        "  undo       待った（自分の直前の手と相手の応手を戻す）\n"
        "  hint       エンジンに次の一手を聞く\n"
        "  resign     投了する\n"
        "  declare    入玉宣言をする（条件を満たしているとき）\n"
        "  save FILE  棋譜を保存する（拡張子で KIF・KI2・CSA・JKF・SFEN・USI を選ぶ）\n"
        "  board      盤面をもう一度表示する\n"
        "  help       この説明\n"
        "  quit       勝敗をつけずにやめる"
    ),
    "reason.no_piece_in_hand": "持駒に{piece}がありません",
    "reason.occupied_drop": "{square}には駒があります。持駒は空いているマスにしか打てません",
    "reason.occupied_own": "{square}には自分の駒があります",
    "reason.dead_piece_drop": "{square}に打った{piece}は二度と動けません（行き所のない駒）",
    "reason.dead_piece_move": "{square}の{piece}はそれ以上動けないので、成らなければなりません（行き所のない駒）",
    "reason.nifu": "二歩です。{file}にはすでに成っていない自分の歩があります",
    "reason.uchifuzume": "持駒の歩を打って玉を詰ますことはできません（打ち歩詰め）",
    "reason.no_piece": "{from_square}に駒がありません",
    "reason.not_your_piece": "{from_square}の駒は相手の駒です",
    "reason.bad_piece_move": "{from_square}の{piece}は{square}へ動けません",
    "reason.cannot_promote_kind": "{piece}は成れません",
    "reason.cannot_promote_zone": "{from_square}も{square}も敵陣（奥の三段）ではないので成れません",
    "reason.self_check": "自分の玉が取られる形になります（王手放置・自殺手）",
    "reason.game_over": "対局はすでに終わっています",
    "reason.illegal": "ルール上指せない手です",
    "declare.no_rule": "入玉宣言のルールがありません",
    "declare.king_not_in_camp": "玉が敵陣に入っていません",
    "declare.in_check": "王手がかかっています",
    "declare.too_few_pieces": "敵陣にある駒が{pieces}枚しかありません（10枚必要）",
    "declare.too_few_points": "点数が{points}点です（{need}点必要）",
    "end.checkmate": "詰みです。{loser}の玉に逃げ道がありません。{winner}の勝ちです。",
    "end.no_legal_moves": "{loser}には指せる手がありません。将棋では負けになります。{winner}の勝ちです。",
    "end.repetition": "同じ局面が4回現れました（千日手）。引き分けです。",
    "end.perpetual_check": (
        "{loser}が王手を続けて同じ局面が4回現れました（連続王手の千日手）。{loser}の反則負け、"
        "{winner}の勝ちです。"
    ),
    "end.entering_king_win": "{winner}が{points}点で入玉宣言をしました。{winner}の勝ちです。",
    "end.entering_king_draw": "{side}が{points}点で宣言しました。24点法では持将棋（引き分け）です。",
    "end.impasse": "持将棋の点数計算：先手{black_points}点、後手{white_points}点。{result}",
    "end.impasse_draw": "両者とも24点以上なので引き分けです。",
    "end.impasse_win": "{winner}の勝ちです。",
    "end.max_moves": "手数の上限に達したので引き分けです。",
    "end.illegal_move": "{loser}が反則手を指しました（{detail}）。{loser}の反則負け、{winner}の勝ちです。",
    "end.resignation": "{loser}が投了しました。{winner}の勝ちです。",
    "end.time_forfeit": "{loser}の時間切れです。{winner}の勝ちです。",
    "end.abandoned": "対局は勝敗がつかないまま中断されました。",
    "learn.declares_yes": "宣言すれば先手の勝ちです。",
    "learn.declares_no": "まだ宣言はできません。",
    "learn.ok_refused": "そのとおり、この手は指せません。{reason}。",
    "learn.refused": "指せません：{reason}。",
    "learn.ok_legal": "正しく指せました。",
    "learn.ok_mate": "詰みです！よくできました。",
    "learn.not_mate": "指せる手ですが、詰みではありません。もう一度どうぞ。",
    "learn.legal_try_refused": "その手は指せます。今度は禁じ手を試してみましょう。",
    "puzzle.not_check": "詰将棋では、攻め方は毎回王手をかけなければなりません。",
    "puzzle.no_mate": "この王手では{moves}で詰みません。",
    "puzzle.illegal": "指せません：{reason}。",
    "puzzle.correct": "正解！",
    "puzzle.solved": "詰みました！正解です。",
    "puzzle.unverified": "時間内にこの手を確かめられませんでした。",
    "puzzle.moves": "{count}手",
    "puzzle.group": "{count}手詰",
    "reason.must_promote": "{piece}はそこでは成らなければなりません",
    "reason.cannot_promote_here": "その手では{piece}は成れません",
    "reason.no_such_move": "{square}に動ける自分の{piece}がありません",
    "reason.wrong_side": "{side}の手番です",
}

_ZH_HANT: dict[str, str] = {
    "side.shitate": "下手",
    "side.uwate": "上手",
    "file": "第{file}筋",
    "board.hand": "持駒",
    "board.hand_none": "無",
    "board.turn": "輪到{side}",
    "board.move_number": "第{number}手",
    "board.last_move": "上一手：{move}",
    "board.check": "王手（將軍）！",
    "board.clock": "{side}：{time}",
    "board.byoyomi": "讀秒 {seconds} 秒",
    "board.in_byoyomi": "讀秒中",
    "game.title": "{black} 對 {white}",
    "game.human": "你",
    "game.player": "玩家{number}",
    "game.engine": "shogiban 引擎（等級 {level}）",
    "game.start_handicap": "讓子對局（{name}）：{uwate}讓子並先走。",
    "game.prompt": "{side} > ",
    "game.thinking": "{name}思考中…",
    "game.played": "{side}：{move}",
    "game.welcome": "請輸入棋步（7g7f、７六步、76步、P-7f）或輸入 help。",
    "game.declare_possible": "現在可以入玉宣言獲勝：請輸入 declare。",
    "game.engine_declares": "{side}入玉宣言。",
    "game.engine_error": "引擎出錯：{error}",
    "game.after_end": "對局已結束。輸入 save 檔名 儲存棋譜，board 顯示棋盤，quit 離開。",
    "game.eof": "輸入已結束，對局中止。",
    "error.unreadable": "無法把 {text!r} 讀成棋步或指令。輸入 help 查看棋步的寫法。",
    "error.illegal": "{move} 是違規的棋步：{reason}。",
    "error.ambiguous": "{text!r} 不夠明確，可能是：{candidates}。請加上右、左、上、引、寄、直，或改用 USI 寫法。",
    "error.unknown_command": "沒有 {text!r} 這個指令。輸入 help 查看指令。",
    "error.not_now": "對局已經結束了。",
    "cmd.undo_done": "已退回{count}手。",
    "cmd.undo_none": "沒有可以退回的己方棋步。",
    "cmd.resign_done": "{side}認輸（投了）。",
    "cmd.hint": "提示：{move}",
    "cmd.hint_none": "無法提示：{why}",
    "cmd.hint_no_engine": "沒有可用的引擎",
    "cmd.save_done": "棋譜已存到 {path}。",
    "cmd.save_failed": "無法存到 {path}：{error}",
    "cmd.save_usage": "用法：save 檔名（副檔名 .kif .kifu .ki2 .csa .jkf .sfen .usi）",
    "cmd.declare_refused": "現在還不能入玉宣言：{reason}。",
    "cmd.quit": "對局已中止。",
    "help.text": (
        "棋步可以用以下任一種寫法輸入：\n"
        "  USI：     7g7f、8h2b+（升變）、P*5e（打入）\n"
        "  日式：    ７六步、76步、同步、５五銀打、２二角成、５二金右\n"
        "  西式：    P-7f、Bx2b+、S*5e\n"
        "指令：\n"
        "  undo       悔棋（退回自己上一手和對方的應手）\n"
        "  hint       請引擎提示下一手\n"
        "  resign     認輸\n"
        "  declare    符合條件時入玉宣言\n"
        "  save FILE  儲存棋譜（依副檔名用 KIF、KI2、CSA、JKF、SFEN 或 USI 格式）\n"
        "  board      再次顯示棋盤\n"
        "  help       顯示本說明\n"
        "  quit       不分勝負直接結束"
    ),
    "reason.no_piece_in_hand": "持駒裡沒有{piece}",
    "reason.occupied_drop": "{square}已經有棋子，持駒只能打在空格上",
    "reason.occupied_own": "{square}上是自己的棋子",
    "reason.dead_piece_drop": "打在{square}的{piece}將永遠無法移動（行き所のない駒）",
    "reason.dead_piece_move": "{square}的{piece}以後無法再移動，必須升變（行き所のない駒）",
    "reason.nifu": "二步：{file}已經有自己未升變的步兵",
    "reason.uchifuzume": "不可以打入步兵把對方將死（打步詰）",
    "reason.no_piece": "{from_square}上沒有棋子",
    "reason.not_your_piece": "{from_square}上是對方的棋子",
    "reason.bad_piece_move": "{from_square}的{piece}不能走到{square}",
    "reason.cannot_promote_kind": "{piece}不能升變",
    "reason.cannot_promote_zone": "{from_square}和{square}都不在敵陣（最遠的三段）內，不能升變",
    "reason.self_check": "走了之後自己的王會被吃（送將）",
    "reason.game_over": "對局已經結束",
    "reason.illegal": "規則不允許這一步",
    "declare.no_rule": "本局沒有入玉宣言的規則",
    "declare.king_not_in_camp": "你的玉還沒進入敵陣",
    "declare.in_check": "你的玉正被王手",
    "declare.too_few_pieces": "敵陣內只有{pieces}枚己方棋子（需要10枚）",
    "declare.too_few_points": "只有{points}分（需要{need}分）",
    "end.checkmate": "將死（詰）：{loser}的玉無路可逃。{winner}獲勝。",
    "end.no_legal_moves": "{loser}沒有任何合法的棋步，在將棋中算輸。{winner}獲勝。",
    "end.repetition": "同一局面出現了4次（千日手），和棋。",
    "end.perpetual_check": "{loser}連續王手，使同一局面出現了4次（連續王手的千日手）：{loser}犯規判負，{winner}獲勝。",
    "end.entering_king_win": "{winner}以{points}分入玉宣言。{winner}獲勝。",
    "end.entering_king_draw": "{side}以{points}分宣言：依24分規則為持將棋（和棋）。",
    "end.impasse": "持將棋計分：先手{black_points}分，後手{white_points}分。{result}",
    "end.impasse_draw": "雙方都有24分以上，和棋。",
    "end.impasse_win": "{winner}獲勝。",
    "end.max_moves": "已達手數上限，和棋。",
    "end.illegal_move": "{loser}走了違規的棋步（{detail}），犯規判負。{winner}獲勝。",
    "end.resignation": "{loser}認輸。{winner}獲勝。",
    "end.time_forfeit": "{loser}超時判負。{winner}獲勝。",
    "end.abandoned": "對局中止，沒有勝負。",
    "learn.declares_yes": "所以先手現在宣言就能獲勝。",
    "learn.declares_no": "還不能宣言。",
    "learn.ok_refused": "沒錯：規則不允許這一步。{reason}。",
    "learn.refused": "不允許：{reason}。",
    "learn.ok_legal": "很好，這一步是允許的。",
    "learn.ok_mate": "將死！做得好。",
    "learn.not_mate": "這一步可以走，但沒有將死。再試一次。",
    "learn.legal_try_refused": "這一步是允許的。現在試試被禁止的那一步。",
    "puzzle.not_check": "詰將棋中，攻方的每一步都必須王手。",
    "puzzle.no_mate": "這個王手無法在{moves}內將死。",
    "puzzle.illegal": "不允許：{reason}。",
    "puzzle.correct": "正確！",
    "puzzle.solved": "將死了！解題成功。",
    "puzzle.unverified": "無法及時驗證這一步。",
    "puzzle.moves": "{count}手",
    "puzzle.group": "{count}手詰",
    "reason.must_promote": "{piece}走到那裡必須升變",
    "reason.cannot_promote_here": "這一步{piece}不能升變",
    "reason.no_such_move": "沒有己方的{piece}能走到{square}",
    "reason.wrong_side": "現在輪到{side}",
}

_ZH_HANS: dict[str, str] = {
    "side.shitate": "下手",
    "side.uwate": "上手",
    "file": "第{file}筋",
    "board.hand": "持驹",
    "board.hand_none": "无",
    "board.turn": "轮到{side}",
    "board.move_number": "第{number}手",
    "board.last_move": "上一手：{move}",
    "board.check": "王手（将军）！",
    "board.clock": "{side}：{time}",
    "board.byoyomi": "读秒 {seconds} 秒",
    "board.in_byoyomi": "读秒中",
    "game.title": "{black} 对 {white}",
    "game.human": "你",
    "game.player": "玩家{number}",
    "game.engine": "shogiban 引擎（等级 {level}）",
    "game.start_handicap": "让子对局（{name}）：{uwate}让子并先走。",
    "game.prompt": "{side} > ",
    "game.thinking": "{name}思考中…",
    "game.played": "{side}：{move}",
    "game.welcome": "请输入棋步（7g7f、７六步、76步、P-7f）或输入 help。",
    "game.declare_possible": "现在可以入玉宣言获胜：请输入 declare。",
    "game.engine_declares": "{side}入玉宣言。",
    "game.engine_error": "引擎出错：{error}",
    "game.after_end": "对局已结束。输入 save 文件名 保存棋谱，board 显示棋盘，quit 退出。",
    "game.eof": "输入已结束，对局中止。",
    "error.unreadable": "无法把 {text!r} 读成棋步或指令。输入 help 查看棋步的写法。",
    "error.illegal": "{move} 是违规的棋步：{reason}。",
    "error.ambiguous": "{text!r} 不够明确，可能是：{candidates}。请加上右、左、上、引、寄、直，或改用 USI 写法。",
    "error.unknown_command": "没有 {text!r} 这个指令。输入 help 查看指令。",
    "error.not_now": "对局已经结束了。",
    "cmd.undo_done": "已退回{count}手。",
    "cmd.undo_none": "没有可以退回的己方棋步。",
    "cmd.resign_done": "{side}认输（投了）。",
    "cmd.hint": "提示：{move}",
    "cmd.hint_none": "无法提示：{why}",
    "cmd.hint_no_engine": "没有可用的引擎",
    "cmd.save_done": "棋谱已保存到 {path}。",
    "cmd.save_failed": "无法保存到 {path}：{error}",
    "cmd.save_usage": "用法：save 文件名（扩展名 .kif .kifu .ki2 .csa .jkf .sfen .usi）",
    "cmd.declare_refused": "现在还不能入玉宣言：{reason}。",
    "cmd.quit": "对局已中止。",
    "help.text": (
        "棋步可以用以下任一种写法输入：\n"
        "  USI：     7g7f、8h2b+（升变）、P*5e（打入）\n"
        "  日式：    ７六步、76步、同步、５五银打、２二角成、５二金右\n"
        "  西式：    P-7f、Bx2b+、S*5e\n"
        "指令：\n"
        "  undo       悔棋（退回自己上一手和对方的应手）\n"
        "  hint       请引擎提示下一手\n"
        "  resign     认输\n"
        "  declare    符合条件时入玉宣言\n"
        "  save FILE  保存棋谱（按扩展名使用 KIF、KI2、CSA、JKF、SFEN 或 USI 格式）\n"
        "  board      再次显示棋盘\n"
        "  help       显示本说明\n"
        "  quit       不分胜负直接结束"
    ),
    "reason.no_piece_in_hand": "持驹里没有{piece}",
    "reason.occupied_drop": "{square}已经有棋子，持驹只能打在空格上",
    "reason.occupied_own": "{square}上是自己的棋子",
    "reason.dead_piece_drop": "打在{square}的{piece}将永远无法移动（行き所のない駒）",
    "reason.dead_piece_move": "{square}的{piece}以后无法再移动，必须升变（行き所のない駒）",
    "reason.nifu": "二步：{file}已经有自己未升变的步兵",
    "reason.uchifuzume": "不可以打入步兵把对方将死（打步诘）",
    "reason.no_piece": "{from_square}上没有棋子",
    "reason.not_your_piece": "{from_square}上是对方的棋子",
    "reason.bad_piece_move": "{from_square}的{piece}不能走到{square}",
    "reason.cannot_promote_kind": "{piece}不能升变",
    "reason.cannot_promote_zone": "{from_square}和{square}都不在敌阵（最远的三段）内，不能升变",
    "reason.self_check": "走了之后自己的王会被吃（送将）",
    "reason.game_over": "对局已经结束",
    "reason.illegal": "规则不允许这一步",
    "declare.no_rule": "本局没有入玉宣言的规则",
    "declare.king_not_in_camp": "你的玉还没进入敌阵",
    "declare.in_check": "你的玉正被王手",
    "declare.too_few_pieces": "敌阵内只有{pieces}枚己方棋子（需要10枚）",
    "declare.too_few_points": "只有{points}分（需要{need}分）",
    "end.checkmate": "将死（诘）：{loser}的玉无路可逃。{winner}获胜。",
    "end.no_legal_moves": "{loser}没有任何合法的棋步，在将棋中算输。{winner}获胜。",
    "end.repetition": "同一局面出现了4次（千日手），和棋。",
    "end.perpetual_check": "{loser}连续王手，使同一局面出现了4次（连续王手的千日手）：{loser}犯规判负，{winner}获胜。",
    "end.entering_king_win": "{winner}以{points}分入玉宣言。{winner}获胜。",
    "end.entering_king_draw": "{side}以{points}分宣言：按24分规则为持将棋（和棋）。",
    "end.impasse": "持将棋计分：先手{black_points}分，后手{white_points}分。{result}",
    "end.impasse_draw": "双方都有24分以上，和棋。",
    "end.impasse_win": "{winner}获胜。",
    "end.max_moves": "已达手数上限，和棋。",
    "end.illegal_move": "{loser}走了违规的棋步（{detail}），犯规判负。{winner}获胜。",
    "end.resignation": "{loser}认输。{winner}获胜。",
    "end.time_forfeit": "{loser}超时判负。{winner}获胜。",
    "end.abandoned": "对局中止，没有胜负。",
    "learn.declares_yes": "所以先手现在宣言就能获胜。",
    "learn.declares_no": "还不能宣言。",
    "learn.ok_refused": "没错：规则不允许这一步。{reason}。",
    "learn.refused": "不允许：{reason}。",
    "learn.ok_legal": "很好，这一步是允许的。",
    "learn.ok_mate": "将死！做得好。",
    "learn.not_mate": "这一步可以走，但没有将死。再试一次。",
    "learn.legal_try_refused": "这一步是允许的。现在试试被禁止的那一步。",
    "puzzle.not_check": "诘将棋中，攻方的每一步都必须王手。",
    "puzzle.no_mate": "这个王手无法在{moves}内将死。",
    "puzzle.illegal": "不允许：{reason}。",
    "puzzle.correct": "正确！",
    "puzzle.solved": "将死了！解题成功。",
    "puzzle.unverified": "无法及时验证这一步。",
    "puzzle.moves": "{count}手",
    "puzzle.group": "{count}手诘",
    "reason.must_promote": "{piece}走到那里必须升变",
    "reason.cannot_promote_here": "这一步{piece}不能升变",
    "reason.no_such_move": "没有己方的{piece}能走到{square}",
    "reason.wrong_side": "现在轮到{side}",
}

#: The message tables by language code.
CATALOG: dict[str, dict[str, str]] = {"en": _EN, "ja": _JA, "zh-hant": _ZH_HANT, "zh-hans": _ZH_HANS}
