"""rouge-chinese against direct calls to ``rouge_chinese.Rouge`` (loaded in
isolation), and the ``whitespace-zh-sentences`` tokenizer against its
``cut_sent`` and word split."""

from __future__ import annotations

import pytest

from helpers import require_impl, translation_pairs
from metricdiff.impls import isolated_peers
from metricdiff.impls.peers import _isolated
from metricdiff.impls.text.tokenizers import get_tokenizer

METRICS = ["rouge-1", "rouge-2", "rouge-l"]

# rouge-chinese's README, "Use it from the shell": a jieba-segmented news headline
# and paragraph.
README_HYP = ("### 刚刚 发声 ， A股 这种 情况 十分 罕见 ！ 大 聪明 逆市 抄底 330 亿 ， 一篇 研报 "
              "引爆 全球 ， 市场 逻辑 生变 ？")
README_REF = ("刚刚 过去 的 这个 月 ， 美股 总 市值 暴跌 了 将近 6 万亿美元 （ 折合 人民币 "
              "超过 40 万亿 ） ， 这 背后 的 原因 可能 不仅仅 是 加息 这么 简单 。 最近 瑞士 "
              "信贷 知名 分析师 Zoltan   Polzsar 撰写 了 一篇 极其重要 的 文章 ， 详细分析 了 "
              "现有 世界秩序 的 崩坏 本质 以及 美国 和 西方 将要 采取 的 应对 策略 。 在 该文 "
              "中 ， Zoltan   Polzsar 直指 美国 通胀 的 本质 和 其 长期性 。 同期 ， A股 市场 "
              "亦 出现 了 大幅 杀跌 的 情况 。")

#: Chinese as people feed it: segmented, and not; marks with and without spaces.
CHINESE = (
    [README_HYP, "今天 天气 很 好。我们 去 公园 吧！", "今天天气很好。我们去公园吧！",
     "他说：“你好。”然后 走 了……好吧", "a。 \nb"],
    [[README_REF], ["今天 天气 不错 。 我们 去 公园 散步 吧 ！"], ["今天天气不错。我们去公园吧！"],
     ["他 说 ： “ 你好 。 ” 然后 走 了"], ["a。 \nb"]],
)

TEXTS = [README_HYP, *CHINESE[0], "a。。b", "是吗？”他问", "等等......然后", "x？’，y",
         "  ", "", "a\n\n  \nb  ", "a。 ", "問題？！答案"]


def direct(metric: str, hyp: str, ref: str, exclusive: bool = True) -> tuple[float, ...]:
    with _isolated.active(isolated_peers()["rouge-chinese"]) as peer:
        score = peer.module.Rouge(metrics=[metric], exclusive=exclusive).get_scores(hyp, ref)
    return score[0][metric]["r"], score[0][metric]["p"], score[0][metric]["f"]


def library_words(text: str) -> list[str]:
    """The words rouge-chinese's ROUGE-N counts: its pieces, split as it splits them."""
    with _isolated.active(isolated_peers()["rouge-chinese"]) as peer:
        pieces = [" ".join(p.split()) for p in peer.module.Rouge().cut_sent(text) if len(p) > 0]
        return list(peer.modules["rouge_chinese.rouge_score"]._split_into_words(pieces))


@pytest.mark.parametrize("text", TEXTS)
def test_tokenizer_is_its_text_handling(text):
    require_impl("rouge-chinese", "rouge-1")
    assert get_tokenizer("whitespace-zh-sentences")(text) == library_words(text)


def test_tokenizer_by_hand():
    # From cut_sent's regular expressions: a break after '。' before any character
    # but a closing quote; the mark stays with its word; Chinese is not segmented.
    tokenize = get_tokenizer("whitespace-zh-sentences")
    assert tokenize("你好。再见") == ["你好。", "再见"]
    assert tokenize("“你好。”再见") == ["“你好。”", "再见"]
    assert tokenize("a。 \nb") == ["a。", "", "b"]


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("counts", ["set", "multiset"])
def test_text_matches_the_library(metric, counts):
    adapter = require_impl("rouge-chinese", metric)
    options = adapter.options(metric, {"counts": counts} if counts == "multiset" else {})
    for hyps, refs in (CHINESE, translation_pairs()):
        got = adapter.sentence_scores(metric, hyps, refs, options)
        assert [(r.recall, r.precision, r.fmeasure) for r in got] == [
            direct(metric, hyp, seg[0], counts == "set")
            for hyp, seg in zip(hyps, refs, strict=True)]


def test_readme_example_by_hand():
    # The README's shell example: its ROUGE-L counts every word (a multiset), so by
    # hand the totals are the whitespace word counts, 26 and 91 (the marks are
    # words here, each with a space around it), and R is the LCS over 91.
    adapter = require_impl("rouge-chinese", "rouge-l")
    got = adapter.corpus_score("rouge-l", [README_HYP], [[README_REF]], adapter.options("rouge-l"))
    assert (got.hyp_total, got.ref_total) == (len(README_HYP.split()), len(README_REF.split()))
    assert got.recall == got.matches / got.ref_total


@pytest.mark.parametrize("hyp, ref", [("", "今天 天气"), ("今天 天气", ""), ("", "")])
def test_empty_sides_raise_as_the_library_does(hyp, ref):
    adapter = require_impl("rouge-chinese", "rouge-1")
    with pytest.raises(ValueError):
        direct("rouge-1", hyp, ref)
    with pytest.raises(ValueError):
        adapter.corpus_score("rouge-1", [hyp], [[ref]], adapter.options("rouge-1"))
