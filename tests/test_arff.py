import numpy as np
import pytest

from stratbench.datasets import ArffError, read_mulan

XML = """<?xml version="1.0" encoding="utf-8"?>
<labels xmlns="http://mulan.sourceforge.net/labels">
<label name="a"></label>
<label name="Swainson's Thrush"></label>
</labels>
"""


def write(tmp_path, arff, xml=XML):
    (tmp_path / "d.arff").write_text(arff)
    (tmp_path / "d.xml").write_text(xml)
    return [tmp_path / "d.arff"], tmp_path / "d.xml"


def test_dense_with_nominal_feature_comment_and_escaped_label(tmp_path):
    arff = """% a comment
@relation 'toy data'
@attribute f1 numeric
@attribute colour {red, 'dark blue', green}
@attribute a {0,1}
@attribute 'Swainson\\'s Thrush' {0,1}
@data
1.5,red,1,0
% inside the data
-2,'dark blue',0,1
0,green,1,1
"""
    X, Y, labels, features = read_mulan(*write(tmp_path, arff))
    assert labels == ["a", "Swainson's Thrush"]
    assert features == ["f1", "colour"]
    np.testing.assert_array_equal(X, [[1.5, 0], [-2, 1], [0, 2]])
    assert X.dtype == np.float32 and isinstance(X, np.ndarray)
    np.testing.assert_array_equal(Y.toarray(), [[1, 0], [0, 1], [1, 1]])


def test_sparse_rows_give_csr_and_labels_anywhere(tmp_path):
    arff = """@relation s
@attribute a {0,1}
@attribute w1 numeric
@attribute w2 numeric
@attribute "Swainson's Thrush" {0,1}
@data
{0 1,2 3.5}
{1 2,3 1}
{}
"""
    X, Y, _, features = read_mulan(*write(tmp_path, arff))
    assert features == ["w1", "w2"]
    assert X.format == "csr"
    np.testing.assert_array_equal(X.toarray(), [[0, 3.5], [2, 0], [0, 0]])
    np.testing.assert_array_equal(Y.toarray(), [[1, 0], [0, 1], [0, 0]])


def test_train_and_test_files_are_concatenated_in_order(tmp_path):
    header = "@relation r\n@attribute x numeric\n@attribute a {0,1}\n@attribute b {0,1}\n@data\n"
    (tmp_path / "train.arff").write_text(header + "1,1,0\n2,0,1\n")
    (tmp_path / "test.arff").write_text(header + "3,1,1\n")
    (tmp_path / "l.xml").write_text('<labels><label name="a"/><label name="b"/></labels>')
    X, Y, _, _ = read_mulan([tmp_path / "train.arff", tmp_path / "test.arff"], tmp_path / "l.xml")
    np.testing.assert_array_equal(X.ravel(), [1, 2, 3])
    np.testing.assert_array_equal(Y.toarray(), [[1, 0], [0, 1], [1, 1]])


@pytest.mark.parametrize(
    "body, message",
    [
        ("@relation r\n@attribute x numeric\n@attribute a {0,1}\n@attribute b {0,1}\n@data\n1,0\n",
         r"d\.arff:6: malformed data row: 2 values, 3 attributes declared"),
        ("@relation r\n@attribute x numeric\n@attribute a {0,1}\n@attribute b {0,1}\n@data\nabc,0,1\n",
         r"d\.arff:6: malformed data row"),
        ("@relation r\n@attribute x string\n@attribute a {0,1}\n@attribute b {0,1}\n@data\n",
         r"d\.arff:2: malformed @attribute line: .*unsupported type"),
        ("@relation r\n@attribute x numeric\n@attribute a {0,1}\n@attribute b {0,1}\n",
         r"d\.arff: no @data section"),
        ("@relation r\n@attribute x numeric\n@attribute a {0,1}\n@attribute b {0,1}\n@data\n{0 1,7 1}\n",
         r"d\.arff:6: .*attribute index 7 out of range"),
        ("@relation r\n@attribute x numeric\n@attribute a {0,1}\n@attribute b {0,1}\n@data\n1,2,0\n",
         r"d\.arff:6: .*value '2' is not a declared nominal value"),
        ("@relation r\n@attribute x numeric\n@attribute a numeric\n@attribute b {0,1}\n@data\n1,0.5,0\n",
         r"d\.arff: label 'a' is not 0/1 \(value 0\.5 in data row 1\)"),
        ("@relation r\n@attribute x numeric\n@attribute a {0,1}\n@attribute b {0,1}\n@data\n{0 1,1 1,1 1}\n",
         r"d\.arff:6: malformed data row: attribute index 1 appears twice in a sparse row"),
    ],
)
def test_malformed_files_stop_with_file_and_line(tmp_path, body, message):
    xml = '<labels><label name="a"/><label name="b"/></labels>'
    with pytest.raises(ArffError, match=message):
        read_mulan(*write(tmp_path, body, xml))


def test_label_missing_from_arff_is_named(tmp_path):
    arff = "@relation r\n@attribute x numeric\n@attribute a {0,1}\n@data\n1,0\n"
    with pytest.raises(ArffError, match=r"not among its attributes: \[\"Swainson's Thrush\"\]"):
        read_mulan(*write(tmp_path, arff))


def test_broken_label_xml(tmp_path):
    arff = "@relation r\n@attribute a {0,1}\n@data\n1\n"
    with pytest.raises(ArffError, match=r"d\.xml: cannot read the label XML"):
        read_mulan(*write(tmp_path, arff, "<labels><label name='a'>"))
