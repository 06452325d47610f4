"""BibTeX for the tool and each C/W/L metric family (``cwlkit cwl -b``)."""

from __future__ import annotations

TOOL = """@inproceedings{azzopardi2019cwleval,
  author = {Azzopardi, Leif and Thomas, Paul and Moffat, Alistair},
  title = {cwl\\_eval: An Evaluation Tool for Information Retrieval},
  booktitle = {Proc. SIGIR},
  year = {2019},
  pages = {1321--1324},
  doi = {10.1145/3331184.3331398}
}
"""

_BIB = {
    "P": (
        "cleverdon1966",
        "Cleverdon, Cyril W. and Mills, J. and Keen, E. M.",
        "Factors Determining the Performance of Indexing Systems",
        "Aslib Cranfield Research Project",
        "1966",
    ),
    "RBP": (
        "moffat2008rbp",
        "Moffat, Alistair and Zobel, Justin",
        "Rank-Biased Precision for Measurement of Retrieval Effectiveness",
        "ACM Transactions on Information Systems",
        "2008",
    ),
    "NPV": (
        "moffat2008rbp",
        "Moffat, Alistair and Zobel, Justin",
        "Rank-Biased Precision for Measurement of Retrieval Effectiveness",
        "ACM Transactions on Information Systems",
        "2008",
    ),
    "RR": (
        "voorhees1999trec8qa",
        "Voorhees, Ellen M.",
        "The TREC-8 Question Answering Track Report",
        "Proc. TREC",
        "1999",
    ),
    "AP": (
        "harman1992evaluation",
        "Harman, Donna",
        "Evaluation Issues in Information Retrieval",
        "Information Processing and Management",
        "1992",
    ),
    "SDCG": (
        "jarvelin2002cumulated",
        "Jarvelin, Kalervo and Kekalainen, Jaana",
        "Cumulated Gain-Based Evaluation of IR Techniques",
        "ACM Transactions on Information Systems",
        "2002",
    ),
    "nDCG": (
        "jarvelin2002cumulated",
        "Jarvelin, Kalervo and Kekalainen, Jaana",
        "Cumulated Gain-Based Evaluation of IR Techniques",
        "ACM Transactions on Information Systems",
        "2002",
    ),
    "INST": (
        "moffat2015inst",
        "Moffat, Alistair and Bailey, Peter and Scholer, Falk and Thomas, Paul",
        "INST: An Adaptive Metric for Information Retrieval Evaluation",
        "Proc. ADCS",
        "2015",
    ),
    "INSQ": (
        "moffat2012insq",
        "Moffat, Alistair and Scholer, Falk and Thomas, Paul",
        "Models and Metrics: IR Evaluation as a User Process",
        "Proc. ADCS",
        "2012",
    ),
    "TBG": (
        "smucker2012tbg",
        "Smucker, Mark D. and Clarke, Charles L. A.",
        "Time-Based Calibration of Effectiveness Measures",
        "Proc. SIGIR",
        "2012",
    ),
    "U": (
        "sakai2013umeasure",
        "Sakai, Tetsuya and Dou, Zhicheng",
        "Summaries, Ranked Retrieval and Sessions: "
        "A Unified Framework for Information Access Evaluation",
        "Proc. SIGIR",
        "2013",
    ),
    "BPM": (
        "zhang2017bpm",
        "Zhang, Fan and Liu, Yiqun and Li, Xin and Zhang, Min and Xu, Yinghui and Ma, Shaoping",
        "Evaluating Web Search with a Bejeweled Player Model",
        "Proc. SIGIR",
        "2017",
    ),
    "BPMD": (
        "zhang2017bpm",
        "Zhang, Fan and Liu, Yiqun and Li, Xin and Zhang, Min and Xu, Yinghui and Ma, Shaoping",
        "Evaluating Web Search with a Bejeweled Player Model",
        "Proc. SIGIR",
        "2017",
    ),
    "IFT": (
        "azzopardi2018ift",
        "Azzopardi, Leif and Thomas, Paul and Craswell, Nick",
        "Measuring the Utility of Search Engine Result Pages",
        "Proc. SIGIR",
        "2018",
    ),
    "SET": (
        "azzopardi2019cwleval",
        "Azzopardi, Leif and Thomas, Paul and Moffat, Alistair",
        "cwl\\_eval: An Evaluation Tool for Information Retrieval",
        "Proc. SIGIR",
        "2019",
    ),
    "C_E": (
        "azzopardi2021err",
        "Azzopardi, Leif and Mackenzie, Joel and Moffat, Alistair",
        "ERR is not C/W/L: "
        "Exploring the Relationship Between Expected Reciprocal Rank and Other Metrics",
        "Proc. ICTIR",
        "2021",
    ),
    "ERR": (
        "chapelle2009err",
        "Chapelle, Olivier and Metzler, Donald and Zhang, Ya and Grinspan, Pierre",
        "Expected Reciprocal Rank for Graded Relevance",
        "Proc. CIKM",
        "2009",
    ),
}


def entry_for(family: str) -> str | None:
    """A BibTeX entry for a metric family (None if unknown)."""
    family = family.removesuffix("_cwl")
    key = (
        family
        if family in _BIB
        else ("C_E" if family.startswith("C_E") else ("IFT" if family.startswith("IFT") else None))
    )
    if key is None:
        return None
    cite, author, title, venue, year = _BIB[key]
    return (
        f"@misc{{{cite},\n"
        f"  author = {{{author}}},\n"
        f"  title = {{{title}}},\n"
        f"  howpublished = {{{venue}}},\n"
        f"  year = {{{year}}}\n"
        "}\n"
    )


def bibliography(families: list[str]) -> str:
    """The tool's entry and one entry per distinct cited work, in order of first use."""
    out, seen = [TOOL], {"azzopardi2019cwleval"}
    for fam in families:
        e = entry_for(fam)
        if e is None:
            continue
        key = e.split("{", 1)[1].split(",", 1)[0]
        if key not in seen:
            seen.add(key)
            out.append(e)
    return "\n".join(out)
