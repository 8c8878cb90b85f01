"""Traditional and simplified forms of the Chinese characters the catalogue uses.

Each pair is a traditional character and its simplified form, where the two differ (盤 盘, 將 将,
銀 银).  The list was made from the characters of the catalogue's texts with a conversion table
(OpenCC's character mapping) and checked by hand; characters that are correct in both scripts
(制, 吃, 后, 里 ...) are left out.  Extend it when a new text brings new characters.
"""

from __future__ import annotations

_PAIRS = (
    "並并 來来 個个 側侧 備备 傳传 儲储 內内 兩两 別别 則则 剛刚 動动 務务 區区 參参 問问 啟启 單单 嗎吗 "
    "國国 圍围 圖图 執执 場场 夠够 奧奥 學学 實实 寫写 將将 專专 對对 導导 屬属 張张 強强 從从 復复 態态 "
    "慣惯 應应 戰战 換换 擇择 擊击 擋挡 擲掷 擴扩 敗败 敵敌 數数 斷断 於于 時时 書书 會会 條条 業业 標标 "
    "樣样 機机 橫横 檔档 檢检 權权 殘残 殺杀 決决 沒没 滿满 為为 無无 爲为 狀状 獲获 現现 畫画 異异 當当 "
    "盤盘 確确 種种 筆笔 簡简 級级 紹绍 終终 結结 絕绝 給给 經经 網网 線线 練练 繰缲 繼继 續续 義义 習习 "
    "聞闻 職职 腦脑 與与 處处 補补 裝装 複复 見见 規规 觀观 訂订 計计 設设 許许 詢询 試试 詰诘 該该 "
    "認认 語语 誤误 說说 説说 誰谁 課课 調调 請请 論论 證证 識识 譜谱 議议 護护 讀读 變变 讓让 負负 費费 "
    "貼贴 賽赛 贏赢 車车 軍军 載载 輪轮 輸输 轉转 這这 連连 進进 運运 過过 達达 違违 遠远 選选 還还 邊边 "
    "釋释 銀银 錯错 鏈链 門门 閉闭 開开 間间 關关 陣阵 階阶 際际 隨随 雙双 離离 電电 頁页 項项 順顺 預预 "
    "頭头 頻频 題题 顯显 飛飞 馬马 駒驹 驗验 體体 點点 龍龙 "
)

#: (traditional, simplified) pairs.
PAIRS: tuple[tuple[str, str], ...] = tuple((pair[0], pair[1]) for pair in "".join(_PAIRS).split())
#: Characters that only traditional Chinese writes (wrong in 简体中文).
TRADITIONAL_ONLY = frozenset(t for t, _ in PAIRS) - frozenset(s for _, s in PAIRS)
#: Characters that only simplified Chinese writes (wrong in 繁體中文).
SIMPLIFIED_ONLY = frozenset(s for _, s in PAIRS) - frozenset(t for t, _ in PAIRS)
